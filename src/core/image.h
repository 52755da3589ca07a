#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sv {

// A dense, row-major single-plane image owning its pixels. Row stride equals the width.
template <typename T>
class Image {
 public:
  using value_type = T;

  Image() = default;
  Image(int width, int height, T fill = T{})
      : width_(width), height_(height), pixels_(static_cast<size_t>(width) * height, fill) {}

  int width() const { return width_; }
  int height() const { return height_; }
  bool empty() const { return pixels_.empty(); }
  size_t size() const { return pixels_.size(); }
  bool same_size(int width, int height) const { return width_ == width && height_ == height; }
  template <typename U>
  bool same_size(const Image<U>& other) const {
    return width_ == other.width() && height_ == other.height();
  }

  T& at(int x, int y) { return pixels_[static_cast<size_t>(y) * width_ + x]; }
  const T& at(int x, int y) const { return pixels_[static_cast<size_t>(y) * width_ + x]; }
  T* row(int y) { return pixels_.data() + static_cast<size_t>(y) * width_; }
  const T* row(int y) const { return pixels_.data() + static_cast<size_t>(y) * width_; }
  T* data() { return pixels_.data(); }
  const T* data() const { return pixels_.data(); }
  std::vector<T>& pixels() { return pixels_; }
  const std::vector<T>& pixels() const { return pixels_; }

  // Pixel at (x, y) with coordinates clamped into the image (border replication).
  const T& clamped(int x, int y) const {
    x = x < 0 ? 0 : (x >= width_ ? width_ - 1 : x);
    y = y < 0 ? 0 : (y >= height_ ? height_ - 1 : y);
    return at(x, y);
  }

  bool operator==(const Image& other) const {
    return width_ == other.width_ && height_ == other.height_ && pixels_ == other.pixels_;
  }
  bool operator!=(const Image& other) const { return !(*this == other); }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<T> pixels_;
};

struct Rgb8 {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb8& o) const { return r == o.r && g == o.g && b == o.b; }
  bool operator!=(const Rgb8& o) const { return !(*this == o); }
};

using ImageU8 = Image<uint8_t>;
using ImageU16 = Image<uint16_t>;
using ImageI16 = Image<int16_t>;
using ImageF32 = Image<float>;
using ImageRgb8 = Image<Rgb8>;

// Luma of an sRGB pixel with BT.601 weights in 8-bit fixed point, rounded: (77 R + 150 G + 29 B + 128) >> 8.
inline uint8_t rgb_to_gray(const Rgb8& p) {
  return static_cast<uint8_t>((77 * p.r + 150 * p.g + 29 * p.b + 128) >> 8);
}

inline ImageU8 to_gray(const ImageRgb8& rgb) {
  ImageU8 gray(rgb.width(), rgb.height());
  for (size_t i = 0; i < rgb.size(); ++i) gray.data()[i] = rgb_to_gray(rgb.data()[i]);
  return gray;
}

inline ImageRgb8 to_rgb(const ImageU8& gray) {
  ImageRgb8 rgb(gray.width(), gray.height());
  for (size_t i = 0; i < gray.size(); ++i) {
    const uint8_t v = gray.data()[i];
    rgb.data()[i] = Rgb8{v, v, v};
  }
  return rgb;
}

}  // namespace sv
