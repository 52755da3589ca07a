#include "src/io/png_io.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "src/core/block_pool.h"
#include "src/core/byte_count.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/image_formats.h"
#include "src/core/input_file.h"
#include "src/io/atomic_file.h"

namespace sv {

namespace {

// The largest image file read: 2^28 pixels (the core readers' limit) of four float channels,
// uncompressed, with room for metadata. OpenCV would read a larger file whole before refusing.
constexpr uint64_t kMaxImageFileBytes = (uint64_t{1} << 32) + (uint64_t{1} << 24);

// Decodes `path` with `flags`, turning every failure into an InputError that names the file.
cv::Mat read_with_opencv(const std::string& path, int flags) {
  const uint64_t size = require_regular_file(path, "image");
  if (size > kMaxImageFileBytes) {
    throw InputError("cannot read image '" + path + "': it holds " + format_bytes(size) +
                     ", more than any image file it could decode (" +
                     format_bytes(kMaxImageFileBytes) + ")");
  }
  cv::Mat mat;
  try {
    mat = cv::imread(path, flags);
  } catch (const cv::Exception& e) {
    throw InputError("cannot read image '" + path + "': " + e.what());
  }
  if (mat.empty()) {
    throw InputError("cannot read image '" + path +
                     "': not an image OpenCV can decode (unknown format or damaged file)");
  }
  return mat;
}

Rgb8 from_bgr(const uint8_t* p) { return Rgb8{p[2], p[1], p[0]}; }

// An 8-bit 3- or 4-channel BGR(A) Mat as RGB; alpha is dropped.
ImageRgb8 bgr_to_rgb_image(const cv::Mat& mat, BlockPool* pool = nullptr) {
  ImageRgb8 image = pooled_image<ImageRgb8>(pool, mat.cols, mat.rows);  // every pixel written
  const int channels = mat.channels();
  for (int y = 0; y < mat.rows; ++y) {
    const uint8_t* src = mat.ptr<uint8_t>(y);
    Rgb8* dst = image.row(y);
    for (int x = 0; x < mat.cols; ++x) dst[x] = from_bgr(src + x * channels);
  }
  return image;
}

// Encoded in memory, then written through write_file_atomically: cv::imwrite reports success
// for a file whose final flush failed (a full disk), leaving a cut PNG behind.
void write_with_opencv(const std::string& path, const cv::Mat& mat) {
  std::vector<uchar> bytes;
  bool encoded = false;
  try {
    encoded = cv::imencode(".png", mat, bytes);
  } catch (const cv::Exception& e) {
    throw RuntimeError("cannot write PNG '" + path + "': " + e.what());
  }
  if (!encoded) throw RuntimeError("cannot write PNG '" + path + "': OpenCV cannot encode it");
  write_file_atomically(path, bytes.data(), bytes.size());
}

// Wraps a single-plane image's pixels without copying; imwrite only reads them.
template <typename T>
cv::Mat wrap(const Image<T>& image, int type) {
  return cv::Mat(image.height(), image.width(), type, const_cast<T*>(image.data()));
}

}  // namespace

ImageRgb8 read_image_rgb(const std::string& path, BlockPool* pool) {
  // Orientation ignored: a stereo pair must keep the pixel grid it was rectified on.
  const cv::Mat mat = read_with_opencv(path, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
  return bgr_to_rgb_image(mat, pool);
}

ImageU8 read_image_gray(const std::string& path) { return to_gray(read_image_rgb(path)); }

ImageU16 read_image_u16(const std::string& path) {
  const cv::Mat mat = read_with_opencv(path, cv::IMREAD_UNCHANGED);
  const int depth = mat.depth();
  const int channels = mat.channels();
  if (channels == 1 && (depth == CV_8U || depth == CV_16U)) {
    ImageU16 image(mat.cols, mat.rows);
    for (int y = 0; y < mat.rows; ++y) {
      uint16_t* dst = image.row(y);
      if (depth == CV_8U) {
        const uint8_t* src = mat.ptr<uint8_t>(y);
        for (int x = 0; x < mat.cols; ++x) dst[x] = src[x];
      } else {
        const uint16_t* src = mat.ptr<uint16_t>(y);
        for (int x = 0; x < mat.cols; ++x) dst[x] = src[x];
      }
    }
    return image;
  }
  if ((channels == 3 || channels == 4) && depth == CV_8U) {
    // Palette PNGs decode as colour; for gray palettes rgb_to_gray returns the value unchanged.
    const ImageU8 gray = to_gray(bgr_to_rgb_image(mat));
    ImageU16 image(gray.width(), gray.height());
    for (size_t i = 0; i < gray.size(); ++i) image.data()[i] = gray.data()[i];
    return image;
  }
  throw InputError("cannot read image '" + path + "' as 8/16-bit gray: it has " +
                   std::to_string(channels) + " channels of " +
                   (depth == CV_16U ? "16" : depth == CV_8U ? "8" : "non-integer") +
                   "-bit samples");
}

// A float gray image with its own 8-bit range view (the sources rescale a pair to one range).
static FullDepthImage float_image(ImageF32 gray) {
  FullDepthImage image{ImageRgb8(), ImageU16(), std::move(gray)};
  image.view = to_rgb(eight_bit_view(image.grayf, float_view_range(image.grayf, image.grayf,
                                                                     StereoParams())));
  return image;
}

// A 32-bit float file: gray only, since a float colour file has no agreed weighting.
static FullDepthImage read_float_image(const std::string& path, const cv::Mat& mat,
                                       BlockPool* pool) {
  if (mat.channels() != 1) {
    throw InputError("cannot read float image '" + path + "': it has " +
                     std::to_string(mat.channels()) + " channels (only gray float images are read)");
  }
  // The float plane (what an engine uploads) in a block of the pool when it gives one.
  ImageF32 gray = pooled_image<ImageF32>(pool, mat.cols, mat.rows);
  for (int y = 0; y < mat.rows; ++y) {
    const float* src = mat.ptr<float>(y);
    std::copy(src, src + mat.cols, gray.row(y));
  }
  return float_image(std::move(gray));
}

static std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

FullDepthImage read_image_full_depth(const std::string& path, BlockPool* pool) {
  // PFM and Netpbm through the core's readers, as a single pair reads them (StillPairSource),
  // so a file gives the same values alone, in a folder or under a pattern.
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return float_image(pooled_copy(pool, read_pfm(path)));
  if (ext == ".pgm" || ext == ".ppm" || ext == ".pnm") {
    NetpbmImage netpbm = read_netpbm_full_depth(path);
    // The 16-bit plane is what an engine uploads: into the pool, as the 8-bit view of an 8-bit file.
    ImageU16 gray16 = netpbm.gray16.empty() ? ImageU16() : pooled_copy(pool, netpbm.gray16);
    return FullDepthImage{std::move(netpbm.view), std::move(gray16), ImageF32()};
  }
  const cv::Mat mat = read_with_opencv(path, cv::IMREAD_UNCHANGED);
  if (mat.depth() == CV_32F) return read_float_image(path, mat, pool);
  if (mat.depth() != CV_16U)
    return FullDepthImage{read_image_rgb(path, pool), ImageU16(), ImageF32()};
  const int channels = mat.channels();
  // The 16-bit plane (what an engine uploads) in a block of the pool when it gives one.
  FullDepthImage image{ImageRgb8(mat.cols, mat.rows),
                       pooled_image<ImageU16>(pool, mat.cols, mat.rows), ImageF32()};
  for (int y = 0; y < mat.rows; ++y) {
    const uint16_t* src = mat.ptr<uint16_t>(y);
    Rgb8* view = image.view.row(y);
    uint16_t* gray = image.gray16.row(y);
    for (int x = 0; x < mat.cols; ++x) {
      const uint16_t* p = src + static_cast<size_t>(x) * channels;
      if (channels >= 3) {  // BGR(A); alpha dropped
        const uint32_t b = p[0], g = p[1], r = p[2];
        gray[x] = static_cast<uint16_t>((77 * r + 150 * g + 29 * b + 128) >> 8);
        view[x] = Rgb8{eight_bit_value(p[2]), eight_bit_value(p[1]), eight_bit_value(p[0])};
      } else {  // gray, or gray and alpha
        gray[x] = p[0];
        const uint8_t v = eight_bit_value(p[0]);
        view[x] = Rgb8{v, v, v};
      }
    }
  }
  return image;
}

void write_png(const std::string& path, const ImageU8& image) {
  write_with_opencv(path, wrap(image, CV_8UC1));
}

void write_png(const std::string& path, const ImageU16& image) {
  write_with_opencv(path, wrap(image, CV_16UC1));
}

void write_png(const std::string& path, const ImageRgb8& image) {
  cv::Mat bgr(image.height(), image.width(), CV_8UC3);
  for (int y = 0; y < image.height(); ++y) {
    const Rgb8* src = image.row(y);
    uint8_t* dst = bgr.ptr<uint8_t>(y);
    for (int x = 0; x < image.width(); ++x) {
      dst[3 * x + 0] = src[x].b;
      dst[3 * x + 1] = src[x].g;
      dst[3 * x + 2] = src[x].r;
    }
  }
  write_with_opencv(path, bgr);
}

}  // namespace sv
