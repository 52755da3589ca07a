#pragma once

#include <memory>
#include <string>

#include "src/core/image.h"
#include "src/core/stage_timings.h"
#include "src/core/stereo_params.h"

namespace sv {

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
  StageTimings timings;
  // Set only by an engine asked to keep device results (set_keep_device_results).
  std::shared_ptr<const DeviceResult> device;
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
  // Asks for DisparityResult::device on later frames (for CUDA-GL interop); engines that have no
  // device ignore it.
  virtual void set_keep_device_results(bool /*keep*/) {}
  // False for an algorithm this engine has no implementation of (a frontend then routes the
  // frame to the CPU reference instead).
  virtual bool supports(const StereoParams& /*params*/) const { return true; }
};

// Checks what every engine requires of an input pair; throws InputError with both sizes.
void require_matching_pair(const ImageU8& left, const ImageU8& right);

}  // namespace sv
