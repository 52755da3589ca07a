#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/remap.h"
#include "src/core/image.h"
#include "src/core/remap.h"

namespace sv::cuda {

// The CUDA engine's rectification (a FrameRequest's rectification): the maps, uploaded once per
// maps object, and the rectified level-0 planes of the frame being computed, which the pipeline
// reads instead of the raw upload. Every remap runs on the pipeline's stream, so one set of
// rectified buffers serves all frames in flight (each frame's remap waits for the previous
// frame's reads). Buffers grow only.
class DeviceRectification {
 public:
  // Null turns rectification off (the uploaded maps are kept for a later return of the same
  // maps). New maps are uploaded after `stream` has finished the frames that read the old ones.
  // InputError for maps that are empty or of mixed sizes.
  void set(std::shared_ptr<const RectificationMaps> maps, cudaStream_t stream);
  bool active() const { return active_; }
  // The maps on the host (set() was given some).
  const RectificationMaps& maps() const { return *maps_; }
  // InputError unless a width x height pair can be rectified by the maps.
  void require_size(int width, int height) const;

  // The remaps of a raw pair (the maps' size) into the rectified planes, on `stream`.
  void rectify(const uint8_t* left, const uint8_t* right, cudaStream_t stream);
  void rectify(const uint16_t* left, const uint16_t* right, cudaStream_t stream);
  void rectify(const float* left, const float* right, cudaStream_t stream);
  // Colour: the rectified views and their gray (image.h's to_gray), in one pass per view.
  void rectify(const Rgb8* left, const Rgb8* right, cudaStream_t stream);

  // The last rectify()'s results.
  const uint8_t* gray_left() const { return gray_left_.data(); }
  const uint8_t* gray_right() const { return gray_right_.data(); }
  const uint16_t* left16() const { return left16_.data(); }
  const uint16_t* right16() const { return right16_.data(); }
  const float* leftf() const { return leftf_.data(); }
  const float* rightf() const { return rightf_.data(); }
  const Rgb8* colour_left() const { return colour_left_.data(); }
  const Rgb8* colour_right() const { return colour_right_.data(); }

 private:
  DeviceRemapMaps left_maps() const;
  DeviceRemapMaps right_maps() const;
  size_t pixels() const { return static_cast<size_t>(width_) * height_; }

  std::shared_ptr<const RectificationMaps> maps_;  // what `device_maps_` holds
  bool active_ = false;
  int width_ = 0, height_ = 0;
  DeviceBuffer<float> device_maps_;  // left x, left y, right x, right y
  DeviceBuffer<uint8_t> gray_left_, gray_right_;
  DeviceBuffer<uint16_t> left16_, right16_;
  DeviceBuffer<float> leftf_, rightf_;
  DeviceBuffer<Rgb8> colour_left_, colour_right_;
};

}  // namespace sv::cuda
