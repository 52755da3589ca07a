#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/error.h"
#include "src/core/image.h"
#include "src/core/stage_timings.h"
#include "src/core/stereo_params.h"

namespace sv {

struct RectificationMaps;  // remap.h

// A result still held on the engine's device (the CUDA engine's DeviceDisparity), so a display
// on the same GPU can show it without a host round trip. Opaque here: the core knows no CUDA.
class DeviceResult {
 public:
  virtual ~DeviceResult() = default;
};

// What an engine returns for one rectified pair, in the left view.
struct DisparityResult {
  ImageF32 disparity;        // px, kInvalidDisparity (+inf) where no match survived
  ImageI16 disparity_fixed;  // the same in 1/16 px fixed point: the exact, comparable result
  // Per-pixel confidence in [0, 1] (confidence.h), 0 where the selection found no match; empty
  // unless the parameters ask for it (confidence, confidence-threshold or repair).
  ImageF32 confidence;
  StageTimings timings;
  // Set only by an engine asked to keep device results (set_keep_device_results).
  std::shared_ptr<const DeviceResult> device;
  // Set only by an engine that rectified a colour pair itself (set_rectification): the rectified
  // views the disparity belongs to, for the display.
  ImageRgb8 rectified_left, rectified_right;
  // Set only when both hold (device results kept, views rectified by the engine): the same views
  // still on the engine's device (the CUDA engine's DeviceViews), for display without the host.
  std::shared_ptr<const DeviceResult> device_views;
};

// What one frame costs an engine, estimated before anything is allocated, so that a frame that
// cannot fit is refused with the numbers instead of failing (or swapping) halfway
// (frame_budget.h checks it before the first frame of each size).
struct FrameCost {
  uint64_t host_bytes = 0;    // peak host memory of the frame, its input images excluded
  uint64_t device_bytes = 0;  // peak device memory; 0 for an engine without a device
  double seconds = 0.0;       // expected time of the frame; 0 when not estimated (fast engines)
};

// The contract shared by the CPU reference engine and the CUDA engine: the same parameters give
// the same disparities (bit for bit on integer pipelines). compute() validates its inputs and
// throws InputError for bad parameters or mismatched images, RuntimeError for failures.
class StereoEngine {
 public:
  virtual ~StereoEngine() = default;
  virtual std::string name() const = 0;
  virtual DisparityResult compute(const ImageU8& left, const ImageU8& right,
                                  const StereoParams& params) = 0;
  // Colour input: engines that can use colour (ESAW / ESMP's adaptive weights with
  // `colour-weights` on, uses_colour_weights in esaw_aggregation.h) override this; every other
  // case matches the gray views (to_gray), bit for bit as compute() on them.
  virtual DisparityResult compute(const ImageRgb8& left, const ImageRgb8& right,
                                  const StereoParams& params) {
    return compute(to_gray(left), to_gray(right), params);
  }
  // 16-bit gray input: the census compares the full 16-bit values, everything after it is the
  // 8-bit pipeline (high_bit_depth.h). Engines that can say so in supports_high_bit_depth(); this
  // default refuses with an InputError, since a silent reduction to 8 bits would lose the data.
  virtual DisparityResult compute(const ImageU16& /*left*/, const ImageU16& /*right*/,
                                  const StereoParams& params) {
    throw InputError("the " + name() + " engine cannot take 16-bit input (" + params.algorithm +
                     ")");
  }
  // Whether compute(ImageU16, ...) handles `params` (census algorithms).
  virtual bool supports_high_bit_depth(const StereoParams& /*params*/) const { return false; }
  // Float gray input, the same way: the census compares the float values (NaN = missing), the
  // rest is the 8-bit pipeline on the pair's 8-bit view (high_bit_depth.h, float_view_range).
  virtual DisparityResult compute(const ImageF32& /*left*/, const ImageF32& /*right*/,
                                  const StereoParams& params) {
    throw InputError("the " + name() + " engine cannot take float input (" + params.algorithm +
                     ")");
  }
  // Whether compute(ImageF32, ...) handles `params` (census algorithms).
  virtual bool supports_float_input(const StereoParams& /*params*/) const { return false; }
  // Rectification inside the engine (the CUDA engine's GPU remap, shared/ARCHITECTURE.md): after
  // this call compute() takes RAW pairs of the maps' size and rectifies them (remap.h, bit for
  // bit as remap_bilinear on the host) before matching; colour pairs come back with their
  // rectified views. Null turns it off. Returns false, changing nothing, where the engine cannot
  // (the CPU engine): the caller rectifies on the host.
  virtual bool set_rectification(std::shared_ptr<const RectificationMaps> /*maps*/) {
    return false;
  }
  // Asks for DisparityResult::device on later frames (for CUDA-GL interop); engines that have no
  // device ignore it.
  virtual void set_keep_device_results(bool /*keep*/) {}
  // False for an algorithm this engine has no implementation of (a frontend then routes the
  // frame to the CPU reference instead).
  virtual bool supports(const StereoParams& /*params*/) const { return true; }
  // The cost of one frame of this size with `params` (valid parameters); the default knows
  // nothing and says zero. Throws InputError for a size compute() would refuse (a pyramid
  // deeper than the image allows).
  virtual FrameCost frame_cost(int /*width*/, int /*height*/, const StereoParams& /*params*/) const {
    return {};
  }
  // The device memory free now (the CUDA engine asks the driver); nullopt without a device.
  virtual std::optional<uint64_t> free_device_bytes() const { return std::nullopt; }
};

// Checks what every engine requires of an input pair; throws InputError with both sizes.
void require_matching_pair(const ImageU8& left, const ImageU8& right);

}  // namespace sv
