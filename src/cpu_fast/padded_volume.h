#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "src/core/cost_volume.h"

namespace sv {

// Candidates per pixel rounded up to this, so every SIMD target (up to 512-bit vectors of 16-bit
// lanes) works on whole vectors; the lanes past count() hold no candidate and are ignored.
constexpr int kVolumeLaneAlign = 32;

// A cost volume laid out like CostVolume ([y][x][k], k = d - base(x, y)) with each pixel's
// candidates padded to stride() entries and the data aligned for vector loads.
template <typename T>
class PaddedVolume {
 public:
  PaddedVolume() = default;
  PaddedVolume(int width, int height, const SearchRange& range) { reshape(width, height, range); }

  // Gives the volume this size and range, keeping its memory when it is large enough: a frame
  // that reuses last frame's volumes touches no fresh pages (the kernel zeroing hundreds of MB
  // of new pages would cost as much as a stage). The contents are unspecified afterwards.
  void reshape(int width, int height, const SearchRange& range) {
    width_ = width;
    height_ = height;
    count_ = range.count();
    stride_ = (count_ + kVolumeLaneAlign - 1) / kVolumeLaneAlign * kVolumeLaneAlign;
    const size_t size = static_cast<size_t>(width) * height * stride_;
    if (size > capacity_ || !data_) {
      data_ = hwy::AllocateAligned<T>(size == 0 ? 1 : size);
      capacity_ = size;
    }
  }

  int width() const { return width_; }
  int height() const { return height_; }
  int count() const { return count_; }
  int stride() const { return stride_; }
  T* pixel(int x, int y) { return data_.get() + (static_cast<size_t>(y) * width_ + x) * stride_; }
  const T* pixel(int x, int y) const {
    return data_.get() + (static_cast<size_t>(y) * width_ + x) * stride_;
  }

 private:
  int width_ = 0, height_ = 0, count_ = 0, stride_ = 0;
  size_t capacity_ = 0;
  hwy::AlignedFreeUniquePtr<T[]> data_;
};

// The per-pixel base of a search range as a plane (a uniform range fills it), so kernels read
// one layout.
inline ImageI16 base_plane(const SearchRange& range, int width, int height) {
  if (!range.is_uniform()) return range.per_pixel_base();
  return ImageI16(width, height, static_cast<int16_t>(range.uniform_base()));
}

}  // namespace sv
