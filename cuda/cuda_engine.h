#pragma once

#include <memory>

#include "src/core/stereo_engine.h"

namespace sv::cuda {

// The CUDA engine: the CPU reference engine's pipeline on one CUDA stream, stage for stage, with
// every buffer allocated once per image size and parameter set and reused. Results equal the CPU
// engine's bit for bit (disparity_fixed).
// The constructor throws CudaError when no device can be used; compute() throws CudaError on a
// CUDA failure and InputError on bad input, like the CPU engine.
class CudaEngine : public StereoEngine {
 public:
  CudaEngine();
  ~CudaEngine() override;
  std::string name() const override { return "cuda"; }
  // submit() then collect(): the synchronous form.
  DisparityResult compute(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override;

  // Asynchronous form for a frame loop: submit() queues a pair and returns at once (it only waits
  // when this slot's previous upload has not finished); collect() waits for the oldest submitted
  // frame and returns it with its stage timings. At most two frames are in flight, so the upload
  // of the next pair overlaps the computation of the current one.
  void submit(const ImageU8& left, const ImageU8& right, const StereoParams& params);
  // With `keep`, every later result also carries its disparity on the GPU
  // (DisparityResult::device, a cuda::DeviceDisparity) for CUDA-GL interop.
  void set_keep_device_results(bool keep) override;
  // Every registered algorithm except the adaptive-weight ones (ESAW, ESMP), which are CPU only.
  bool supports(const StereoParams& params) const override;
  DisparityResult collect();
  int frames_in_flight() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sv::cuda
