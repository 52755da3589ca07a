#pragma once

// Conversions between OpenCV matrices and the core's images, for the io layer's .cpp files only
// (this header pulls in OpenCV, which the io layer's public headers never do).

#include <opencv2/core.hpp>

#include "src/core/image.h"

namespace sv {

// An 8-bit BGR, BGRA or gray Mat (OpenCV's decoder output) as RGB; alpha is dropped.
ImageRgb8 rgb_image_from_mat(const cv::Mat& mat);

// A new 8-bit BGR Mat holding `image`.
cv::Mat bgr_mat_from_rgb(const ImageRgb8& image);

}  // namespace sv
