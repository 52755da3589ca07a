#pragma once

#include <string>

#include "src/core/image.h"

namespace sv {

// File formats that need no external library, so the core-only build (GPU machine) has them.
// All readers throw InputError naming the file and the problem (a FIFO, device or folder is
// refused unopened, input_file.h); writers throw RuntimeError.

// PFM (Portable Float Map): single-channel "Pf" read and written; rows stored bottom-up as the
// format requires; little-endian written (negative scale), both endiannesses read. Three-channel
// "PF" files are read as their first channel.
ImageF32 read_pfm(const std::string& path);
void write_pfm(const std::string& path, const ImageF32& image);
// The bytes write_pfm writes, for writers that put them on disk their own way.
std::string pfm_file_bytes(const ImageF32& image);

// PGM (P5) 8- and 16-bit, PPM (P6) 8-bit (16-bit read). 16-bit samples are big-endian as Netpbm
// specifies.
ImageU8 read_pgm8(const std::string& path);    // also reads 16-bit files, keeping the high byte
ImageU16 read_pgm16(const std::string& path);  // also reads 8-bit files, values unchanged
ImageRgb8 read_ppm(const std::string& path);   // also reads P5, replicating gray into r, g, b

// A PGM or PPM file as the frame sources deliver it: the 8-bit colour view and, for a file with
// 16-bit samples (maxval above 255), its gray at full depth, the view then holding the high
// bytes (eight_bit_value, high_bit_depth.h). Gray (P5) is taken as stored, colour (P6) through
// rgb_to_gray's weights on the 16-bit values, as png_io.h reads 16-bit PNG files.
struct NetpbmImage {
  ImageRgb8 view;
  ImageU16 gray16;  // empty for an 8-bit file
};
NetpbmImage read_netpbm_full_depth(const std::string& path);
void write_pgm(const std::string& path, const ImageU8& image);
void write_pgm(const std::string& path, const ImageU16& image);
void write_ppm(const std::string& path, const ImageRgb8& image);

}  // namespace sv
