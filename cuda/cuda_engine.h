#pragma once

#include <memory>

#include "src/core/high_bit_depth.h"
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
  // Colour input: ESAW / ESMP with colour weights (uses_colour_weights) weigh with the left
  // colour image on the input level; everything else matches the gray views (to_gray). Results
  // equal CpuEngine::compute(ImageRgb8, ...).
  DisparityResult compute(const ImageRgb8& left, const ImageRgb8& right,
                          const StereoParams& params) override;
  void submit(const ImageRgb8& left, const ImageRgb8& right, const StereoParams& params);
  // 16-bit input (high_bit_depth.h): the census reads the 16-bit values on the GPU, the rest of
  // the pipeline their 8-bit views; results equal CpuEngine::compute(ImageU16, ...) bit for bit.
  DisparityResult compute(const ImageU16& left, const ImageU16& right,
                          const StereoParams& params) override;
  void submit(const ImageU16& left, const ImageU16& right, const StereoParams& params);
  bool supports_high_bit_depth(const StereoParams& params) const override;
  // Float input (high_bit_depth.h): the census reads the float values on the GPU (NaN missing),
  // the rest the pair's range view; results equal CpuEngine::compute(ImageF32, ...) bit for bit.
  DisparityResult compute(const ImageF32& left, const ImageF32& right,
                          const StereoParams& params) override;
  void submit(const ImageF32& left, const ImageF32& right, const StereoParams& params);
  bool supports_float_input(const StereoParams& params) const override;
  // With `keep`, every later result also carries its disparity on the GPU
  // (DisparityResult::device, a cuda::DeviceDisparity) for CUDA-GL interop, and a colour pair
  // rectified here its views (DisparityResult::device_views, a cuda::DeviceViews).
  void set_keep_device_results(bool keep) override;
  // The GPU remap (StereoEngine::set_rectification; cuda/remap.h): raw pairs of the maps' size
  // in, rectified on the stream before matching; colour pairs come back with their rectified
  // views. Float pairs are rectified on the host: their 8-bit view's range is the rectified
  // pair's, which the host needs before the upload.
  bool set_rectification(std::shared_ptr<const RectificationMaps> maps) override;
  // Every registered algorithm.
  bool supports(const StereoParams& params) const override;
  // Device and host memory of a frame (frame_memory.h); the time is not estimated (fast).
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;
  // cudaMemGetInfo's free memory of the current device; nullopt when the driver does not say.
  std::optional<uint64_t> free_device_bytes() const override;
  DisparityResult collect();
  int frames_in_flight() const;

 private:
  // Every submit(), after its checks: gray planes of 1, 2 or 4 (float) bytes per pixel, or 3: a
  // raw colour pair that the GPU rectifies (set_rectification) and matches by its gray; with
  // colour weights the left colour image that guides them, and for float the pair's view range.
  void submit_planes(const void* left, const void* right, int width, int height,
                     int bytes_per_pixel, const StereoParams& params,
                     const Rgb8* colour_left = nullptr,
                     const FloatViewRange* float_range = nullptr);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sv::cuda
