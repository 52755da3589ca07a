#pragma once

// Conversions between OpenCV matrices and the core's images, for the io layer's .cpp files only
// (this header pulls in OpenCV, which the io layer's public headers never do).

#include <opencv2/core.hpp>

#include "src/core/block_pool.h"
#include "src/core/image.h"

namespace sv {

// An 8-bit BGR, BGRA or gray Mat (OpenCV's decoder output) as RGB; alpha is dropped. Written
// into a block of `pool` while it has a free one (block_pool.h).
ImageRgb8 rgb_image_from_mat(const cv::Mat& mat, BlockPool* pool = nullptr);

// A new 8-bit BGR Mat holding `image`.
cv::Mat bgr_mat_from_rgb(const ImageRgb8& image);

}  // namespace sv
