#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/core/image.h"

namespace sv {

// The disparities examined at each pixel: d = base(x, y) + k for k in [0, count).
// A uniform range has one base for every pixel; the pyramid's finer levels give each pixel its
// own base (the doubled coarse estimate minus the refinement radius).
class SearchRange {
 public:
  SearchRange() = default;
  SearchRange(int min_disparity, int count) : uniform_base_(min_disparity), count_(count) {}
  SearchRange(ImageI16 per_pixel_base, int count)
      : count_(count), per_pixel_base_(std::move(per_pixel_base)) {}

  int count() const { return count_; }
  bool is_uniform() const { return per_pixel_base_.empty(); }
  int base(int x, int y) const { return is_uniform() ? uniform_base_ : per_pixel_base_.at(x, y); }
  int uniform_base() const { return uniform_base_; }
  const ImageI16& per_pixel_base() const { return per_pixel_base_; }

 private:
  int uniform_base_ = 0;
  int count_ = 0;
  ImageI16 per_pixel_base_;
};

// Cost of every candidate disparity of every left-image pixel, lower is better.
// Layout: [y][x][k], k = d - range.base(x, y), so one pixel's candidates are contiguous.
template <typename T>
class CostVolume {
 public:
  using value_type = T;

  CostVolume() = default;
  CostVolume(int width, int height, SearchRange range, T fill = T{})
      : width_(width), height_(height), range_(std::move(range)),
        costs_(static_cast<size_t>(width) * height * range_.count(), fill) {}

  int width() const { return width_; }
  int height() const { return height_; }
  int count() const { return range_.count(); }
  const SearchRange& range() const { return range_; }

  T* pixel(int x, int y) { return costs_.data() + (static_cast<size_t>(y) * width_ + x) * count(); }
  const T* pixel(int x, int y) const {
    return costs_.data() + (static_cast<size_t>(y) * width_ + x) * count();
  }
  T& at(int x, int y, int k) { return pixel(x, y)[k]; }
  const T& at(int x, int y, int k) const { return pixel(x, y)[k]; }
  std::vector<T>& costs() { return costs_; }
  const std::vector<T>& costs() const { return costs_; }

 private:
  int width_ = 0;
  int height_ = 0;
  SearchRange range_;
  std::vector<T> costs_;
};

}  // namespace sv
