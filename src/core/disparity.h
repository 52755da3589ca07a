#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "src/core/image.h"

namespace sv {

// Disparities travel through the pipeline as 16-bit fixed point with 4 fractional bits
// (1/16 px, libSGM's SUBPIXEL_SHIFT), so every stage is integer and the CUDA engine can equal
// the CPU reference bit for bit. Range: about +-2047 px.
constexpr int kDisparityFractionBits = 4;
constexpr int kDisparityScale = 1 << kDisparityFractionBits;  // 16
constexpr int16_t kInvalidFixedDisparity = std::numeric_limits<int16_t>::min();

// The float output marks "no disparity" with +infinity, the convention of Middlebury's PFM files.
constexpr float kInvalidDisparity = std::numeric_limits<float>::infinity();

inline bool is_valid_disparity(float d) { return std::isfinite(d); }
inline bool is_valid_fixed_disparity(int16_t d) { return d != kInvalidFixedDisparity; }

inline int16_t to_fixed_disparity(int whole_pixels) {
  return static_cast<int16_t>(whole_pixels * kDisparityScale);
}

inline float fixed_to_float_disparity(int16_t d) {
  return is_valid_fixed_disparity(d) ? static_cast<float>(d) / kDisparityScale : kInvalidDisparity;
}

inline ImageF32 fixed_to_float_disparity(const ImageI16& fixed) {
  ImageF32 out(fixed.width(), fixed.height());
  for (size_t i = 0; i < fixed.size(); ++i) out.data()[i] = fixed_to_float_disparity(fixed.data()[i]);
  return out;
}

}  // namespace sv
