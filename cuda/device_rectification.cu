#include "cuda/device_rectification.h"

#include <string>

#include "cuda/cuda_check.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

void DeviceRectification::set(std::shared_ptr<const RectificationMaps> maps, cudaStream_t stream) {
  if (!maps) {
    active_ = false;
    return;
  }
  if (maps != maps_) {
    const int w = maps->width(), h = maps->height();
    for (const ImageF32* plane : {&maps->left_x, &maps->left_y, &maps->right_x, &maps->right_y}) {
      if (plane->empty() || !plane->same_size(w, h)) {
        throw InputError("rectification maps must be four non-empty planes of one size");
      }
    }
    if (w > 32767 || h > 32767) {
      throw InputError("rectification maps of " + size_text(w, h) + " are too large");
    }
    // Frames still in flight read the old maps.
    SV_CUDA_CHECK(cudaStreamSynchronize(stream));
    const size_t n = static_cast<size_t>(w) * h;
    device_maps_.reserve(4 * n);
    const ImageF32* planes[4] = {&maps->left_x, &maps->left_y, &maps->right_x, &maps->right_y};
    for (int i = 0; i < 4; ++i) {
      SV_CUDA_CHECK(cudaMemcpy(device_maps_.data() + i * n, planes[i]->data(), n * sizeof(float),
                               cudaMemcpyHostToDevice));
    }
    maps_ = std::move(maps);
    width_ = w;
    height_ = h;
  }
  active_ = true;
}

void DeviceRectification::require_size(int width, int height) const {
  if (width != width_ || height != height_) {
    throw InputError("the rectification maps are " + size_text(width_, height_) +
                     " but the pair is " + size_text(width, height));
  }
}

DeviceRemapMaps DeviceRectification::left_maps() const {
  return {device_maps_.data(), device_maps_.data() + pixels(), width_, height_};
}

DeviceRemapMaps DeviceRectification::right_maps() const {
  return {device_maps_.data() + 2 * pixels(), device_maps_.data() + 3 * pixels(), width_, height_};
}

void DeviceRectification::rectify(const uint8_t* left, const uint8_t* right, cudaStream_t stream) {
  gray_left_.reserve(pixels());
  gray_right_.reserve(pixels());
  remap_bilinear(left, width_, height_, left_maps(), gray_left_.data(), stream);
  remap_bilinear(right, width_, height_, right_maps(), gray_right_.data(), stream);
}

void DeviceRectification::rectify(const uint16_t* left, const uint16_t* right, cudaStream_t stream) {
  left16_.reserve(pixels());
  right16_.reserve(pixels());
  remap_bilinear(left, width_, height_, left_maps(), left16_.data(), stream);
  remap_bilinear(right, width_, height_, right_maps(), right16_.data(), stream);
}

void DeviceRectification::rectify(const float* left, const float* right, cudaStream_t stream) {
  leftf_.reserve(pixels());
  rightf_.reserve(pixels());
  remap_bilinear(left, width_, height_, left_maps(), leftf_.data(), stream);
  remap_bilinear(right, width_, height_, right_maps(), rightf_.data(), stream);
}

void DeviceRectification::rectify(const Rgb8* left, const Rgb8* right, cudaStream_t stream) {
  gray_left_.reserve(pixels());
  gray_right_.reserve(pixels());
  colour_left_.reserve(pixels());
  colour_right_.reserve(pixels());
  remap_bilinear(left, width_, height_, left_maps(), colour_left_.data(), gray_left_.data(), stream);
  remap_bilinear(right, width_, height_, right_maps(), colour_right_.data(), gray_right_.data(),
                 stream);
}

}  // namespace sv::cuda
