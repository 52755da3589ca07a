#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "src/core/high_bit_depth.h"
#include "src/core/stereo_engine.h"

namespace sv::cuda {

// The CUDA engine: the CPU reference engine's pipeline on one CUDA stream, stage for stage, with
// every buffer allocated once per image size and parameter set and reused. Results equal the CPU
// engine's bit for bit (disparity_fixed).
// Frames go through two slots: while one computes, the next pair is uploaded (on an upload
// stream) and the previous result downloaded (on a download stream), each from pinned staging
// allocated once. Only the parts a request asks for are converted (fixed point to float on the
// GPU) and downloaded. The constructor throws CudaError when no device can be used.
class CudaEngine : public StereoEngine {
 public:
  CudaEngine();
  ~CudaEngine() override;
  std::string name() const override { return "cuda"; }

  // StereoEngine's asynchronous interface. submit() returns once the pair is in staging (host
  // planes) and the frame is queued on the GPU; with both slots busy it first finishes the older
  // one into a host result that collect() hands back in its turn. Colour pairs: ESAW / ESMP with
  // colour weights weigh with the left colour image, everything else matches the gray (to_gray
  // on the GPU). 16-bit and float pairs: the census reads the full values (high_bit_depth.h).
  void submit(const FrameRequest& request) override;
  void collect(DisparityResult& result) override;
  using StereoEngine::collect;
  int frames_in_flight() const override;

  bool supports_high_bit_depth(const StereoParams& params) const override;
  bool supports_float_input(const StereoParams& params) const override;
  // The GPU remap (cuda/remap.h) for a request's rectification, bit for bit as remap_bilinear on
  // the host; colour pairs come back with their rectified views. A float pair's 8-bit view takes
  // the rectified pair's range, which the GPU finds too (no host pass over its planes).
  bool can_rectify() const override { return true; }
  bool accepts_device_input() const override { return true; }
  // Every registered algorithm.
  bool supports(const StereoParams& params) const override;
  // Device and host memory of a frame (frame_memory.h); the time is not estimated (fast).
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;
  // cudaMemGetInfo's free memory of the current device; nullopt when the driver does not say.
  std::optional<uint64_t> free_device_bytes() const override;
  // Page-locked memory (pinned_host_memory.h): pairs in blocks of it are uploaded straight from
  // there, and the results are downloaded straight into blocks of it.
  std::shared_ptr<HostMemory> host_memory() const override;

  // For programs whose images are already on the GPU (as libSGM's execute): a device pair
  // (pair.memory == Device, any format but colour rectification) in, the 1/16 px fixed-point
  // disparity written to `disparity_fixed` (device memory, width * height), and the float
  // disparity to `disparity` when not null, all ordered after the work already queued on
  // `stream` and before what the caller queues there next. Returns without waiting for the GPU.
  // Throws InputError for bad input and CudaError on a CUDA failure.
  void compute_on_device(const PairView& pair, const StereoParams& params,
                         int16_t* disparity_fixed, float* disparity, cudaStream_t stream);
  // The stage timings of the last compute_on_device (waits for it).
  StageTimings last_device_call_timings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sv::cuda
