#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/core/host_memory.h"

namespace sv {

// The pixels of an image as one contiguous range (Image::pixels()): iterable, comparable, and
// convertible to a vector, whether the image owns its pixels or lies over a pooled block.
template <typename T>
class PixelSpan {
 public:
  using value_type = std::remove_const_t<T>;
  using iterator = T*;
  using const_iterator = T*;
  PixelSpan(T* data, size_t size) : data_(data), size_(size) {}
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) const { return data_[i]; }
  operator std::vector<value_type>() const { return std::vector<value_type>(begin(), end()); }
  friend bool operator==(const PixelSpan& a, const PixelSpan& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const PixelSpan& a, const PixelSpan& b) { return !(a == b); }
  friend bool operator==(const std::vector<value_type>& a, const PixelSpan& b) {
    return a.size() == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator==(const PixelSpan& a, const std::vector<value_type>& b) { return b == a; }

 private:
  T* data_;
  size_t size_;
};

// A dense, row-major single-plane image. Row stride equals the width. Its pixels are its own
// (a vector), or a pooled block's (over(): memory an engine copies to and from its device
// without staging, block_pool.h), which goes back to its pool when the image lets it go. Either
// way an image is a value: a copy owns a copy of the pixels.
template <typename T>
class Image {
 public:
  using value_type = T;

  Image() = default;
  Image(int width, int height, T fill = T{})
      : width_(width),
        height_(height),
        owned_(static_cast<size_t>(width) * height, fill),
        data_(owned_.data()) {}
  // An image over `block` (at least width * height pixels); its pixels are what the block holds.
  static Image over(int width, int height, std::shared_ptr<PixelBlock> block) {
    if (!block || block->bytes() < static_cast<size_t>(width) * height * sizeof(T)) {
      throw std::invalid_argument("Image::over: the block is smaller than the image");
    }
    Image image;
    image.width_ = width;
    image.height_ = height;
    image.data_ = static_cast<T*>(block->data());
    image.block_ = std::move(block);
    return image;
  }
  Image(const Image& other)
      : width_(other.width_),
        height_(other.height_),
        owned_(other.begin(), other.end()),
        data_(owned_.data()) {}
  Image(Image&& other) noexcept { take(std::move(other)); }
  Image& operator=(const Image& other) {
    if (this != &other) {
      owned_.assign(other.begin(), other.end());  // reuses this image's vector when it fits
      block_.reset();
      data_ = owned_.data();
      width_ = other.width_;
      height_ = other.height_;
    }
    return *this;
  }
  Image& operator=(Image&& other) noexcept {
    if (this != &other) take(std::move(other));
    return *this;
  }

  int width() const { return width_; }
  int height() const { return height_; }
  bool empty() const { return size() == 0; }
  size_t size() const { return static_cast<size_t>(width_) * height_; }
  bool same_size(int width, int height) const { return width_ == width && height_ == height; }
  template <typename U>
  bool same_size(const Image<U>& other) const {
    return width_ == other.width() && height_ == other.height();
  }

  T& at(int x, int y) { return data_[static_cast<size_t>(y) * width_ + x]; }
  const T& at(int x, int y) const { return data_[static_cast<size_t>(y) * width_ + x]; }
  T* row(int y) { return data_ + static_cast<size_t>(y) * width_; }
  const T* row(int y) const { return data_ + static_cast<size_t>(y) * width_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  PixelSpan<T> pixels() { return {data_, size()}; }
  PixelSpan<const T> pixels() const { return {data_, size()}; }
  // The pooled block the pixels lie in; null for an image that owns its pixels.
  const std::shared_ptr<PixelBlock>& block() const { return block_; }
  // Another image over this one's pooled block, without copying: for a second reader of pixels
  // nobody writes any more (a pair in flight beside the copy kept to match it again). A write
  // through either would show in both. An image of its own pixels is copied.
  Image shared() const {
    if (!block_) return *this;
    Image image;
    image.width_ = width_;
    image.height_ = height_;
    image.block_ = block_;
    image.data_ = data_;
    return image;
  }

  // Pixel at (x, y) with coordinates clamped into the image (border replication).
  const T& clamped(int x, int y) const {
    x = x < 0 ? 0 : (x >= width_ ? width_ - 1 : x);
    y = y < 0 ? 0 : (y >= height_ ? height_ - 1 : y);
    return at(x, y);
  }

  bool operator==(const Image& other) const {
    return width_ == other.width_ && height_ == other.height_ &&
           std::equal(begin(), end(), other.begin());
  }
  bool operator!=(const Image& other) const { return !(*this == other); }

 private:
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size(); }
  void take(Image&& other) noexcept {
    width_ = std::exchange(other.width_, 0);
    height_ = std::exchange(other.height_, 0);
    owned_ = std::move(other.owned_);
    block_ = std::move(other.block_);
    data_ = block_ ? std::exchange(other.data_, nullptr) : owned_.data();
    other.owned_.clear();
    other.data_ = nullptr;
  }

  int width_ = 0;
  int height_ = 0;
  std::vector<T> owned_;
  std::shared_ptr<PixelBlock> block_;
  T* data_ = nullptr;
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
