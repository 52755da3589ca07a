#pragma once

#include <string>

#include "src/core/image.h"

namespace sv {

class BlockPool;  // block_pool.h

// Image files through OpenCV: anything imread decodes (PNG, JPEG, PPM/PGM, BMP, TIFF...).
// Readers throw InputError naming the file (missing, not a regular file, larger than any image,
// undecodable, wrong kind); writers throw RuntimeError naming the file.

// Colour as sRGB; gray files are replicated into r, g, b; alpha is dropped; 16-bit files are
// reduced to 8 bits by OpenCV (value / 256).
ImageRgb8 read_image_rgb(const std::string& path, BlockPool* pool = nullptr);

// Gray through sv::to_gray, so a colour file gives exactly the luma the core computes; for a
// gray file (or a gray palette) the values are unchanged.
ImageU8 read_image_gray(const std::string& path);

// A single-channel 8- or 16-bit image with its stored values unchanged (disparity ground truth,
// KITTI's value * 256 PNGs). An 8-bit colour file (e.g. a gray palette PNG) is read through
// sv::to_gray; a 16-bit colour file is an InputError.
ImageU16 read_image_u16(const std::string& path);

// An image file as the sources deliver it (StereoPair): the 8-bit colour view and, for a file
// with 16-bit samples, its gray at full depth (gray files unchanged, colour files through
// rgb_to_gray's weights on the 16-bit values). A 16-bit file's view is the high byte of each
// sample (eight_bit_value in high_bit_depth.h); an 8-bit file reads as read_image_rgb and leaves
// `gray16` empty. A single-channel 32-bit float file (TIFF) fills `grayf` instead, its view
// being the 8-bit range view of that one image (float_view_range in high_bit_depth.h); float
// files of several channels are an InputError. PFM and PGM/PPM/PNM files are read by the core's
// readers (image_formats.h: a 16-bit PGM/PPM keeps its depth, a three-channel PFM gives its first).
struct FullDepthImage {
  ImageRgb8 view;
  ImageU16 gray16;
  ImageF32 grayf;
};
// An 8-bit file's view is decoded into a block of `pool` while it has a free one (block_pool.h).
FullDepthImage read_image_full_depth(const std::string& path, BlockPool* pool = nullptr);

// PNG writers. The file appears whole or not at all (write_file_atomically in atomic_file.h):
// a failure (a full disk) leaves no cut file and names its cause.
void write_png(const std::string& path, const ImageU8& image);
void write_png(const std::string& path, const ImageU16& image);
void write_png(const std::string& path, const ImageRgb8& image);

}  // namespace sv
