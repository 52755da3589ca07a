#include "src/io/mat_image.h"

#include "src/core/error.h"

namespace sv {

ImageRgb8 rgb_image_from_mat(const cv::Mat& mat, BlockPool* pool) {
  if (mat.depth() != CV_8U || (mat.channels() != 1 && mat.channels() != 3 && mat.channels() != 4)) {
    throw InputError("expected an 8-bit gray or colour frame, got OpenCV type " +
                     std::to_string(mat.type()));
  }
  ImageRgb8 image = pooled_image<ImageRgb8>(pool, mat.cols, mat.rows);  // every pixel written
  const int channels = mat.channels();
  for (int y = 0; y < mat.rows; ++y) {
    const uint8_t* src = mat.ptr<uint8_t>(y);
    Rgb8* dst = image.row(y);
    if (channels == 1) {
      for (int x = 0; x < mat.cols; ++x) dst[x] = Rgb8{src[x], src[x], src[x]};
    } else {
      for (int x = 0; x < mat.cols; ++x, src += channels) dst[x] = Rgb8{src[2], src[1], src[0]};
    }
  }
  return image;
}

cv::Mat bgr_mat_from_rgb(const ImageRgb8& image) {
  cv::Mat bgr(image.height(), image.width(), CV_8UC3);
  for (int y = 0; y < image.height(); ++y) {
    const Rgb8* src = image.row(y);
    uint8_t* dst = bgr.ptr<uint8_t>(y);
    for (int x = 0; x < image.width(); ++x, dst += 3) {
      dst[0] = src[x].b;
      dst[1] = src[x].g;
      dst[2] = src[x].r;
    }
  }
  return bgr;
}

}  // namespace sv
