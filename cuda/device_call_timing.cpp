#include "cuda/device_call_timing.h"

#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"

namespace sv::cuda {
namespace {

// A stream and two timing events of the caller's, released on every path.
struct CallerStream {
  CallerStream() {
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    SV_CUDA_CHECK(cudaEventCreate(&start));
    SV_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~CallerStream() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
  }
  CallerStream(const CallerStream&) = delete;
  CallerStream& operator=(const CallerStream&) = delete;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
};

}  // namespace

std::vector<double> time_device_calls(CudaEngine& engine, const ImageU8& left, const ImageU8& right,
                                      const StereoParams& params, int warmup, int runs,
                                      StageTimings* stages,
                                      std::vector<StageTimings>* each_call) {
  require_matching_pair(left, right);
  const size_t pixels = left.size();
  DeviceBuffer<uint8_t> device_left, device_right;
  DeviceBuffer<int16_t> disparity;
  device_left.reserve(pixels);
  device_right.reserve(pixels);
  disparity.reserve(pixels);
  SV_CUDA_CHECK(cudaMemcpy(device_left.data(), left.data(), pixels, cudaMemcpyHostToDevice));
  SV_CUDA_CHECK(cudaMemcpy(device_right.data(), right.data(), pixels, cudaMemcpyHostToDevice));
  PairView pair;
  pair.format = PixelFormat::Gray8;
  pair.memory = MemorySpace::Device;
  pair.left = device_left.data();
  pair.right = device_right.data();
  pair.width = pair.right_width = left.width();
  pair.height = pair.right_height = left.height();

  CallerStream caller;
  std::vector<double> times;
  for (int i = 0; i < warmup + runs; ++i) {
    SV_CUDA_CHECK(cudaEventRecord(caller.start, caller.stream));
    engine.compute_on_device(pair, params, disparity.data(), nullptr, caller.stream);
    SV_CUDA_CHECK(cudaEventRecord(caller.stop, caller.stream));
    SV_CUDA_CHECK(cudaEventSynchronize(caller.stop));
    float ms = 0.0f;
    SV_CUDA_CHECK(cudaEventElapsedTime(&ms, caller.start, caller.stop));
    if (i < warmup) continue;
    times.push_back(ms);
    if (each_call != nullptr) each_call->push_back(engine.last_device_call_timings());
  }
  if (stages != nullptr) *stages = engine.last_device_call_timings();
  return times;
}

}  // namespace sv::cuda
