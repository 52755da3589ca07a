// ESMP's cost-to-message transform on the GPU; reproduces esmp_messages.cpp bit for bit (the same
// float additions in the same order; min is exact). A block stages 32 consecutive pixels'
// candidates (contiguous in the volume, so loaded and stored coalesced) in shared memory, then
// each of 32 threads runs one pixel's sequential two-pass transform there. Bound by the latency
// of that sequential chain; the fused form inside the ESAW pass (esaw_aggregation.cu) is what
// the pipeline uses after every pass, this kernel only for the initial costs.
#include <string>

#include "cuda/adaptive_weight_stages.h"
#include "cuda/cost_storage.cuh"
#include "cuda/cuda_check.h"
#include "cuda/message_transform.cuh"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kTilePixels = 32;
constexpr int kThreads = 128;

// An odd row stride: the 32 threads walking their own pixel's row hit 32 different banks.
int tile_stride(int count) { return count | 1; }

template <typename T>
__global__ void __launch_bounds__(kThreads)
    cost_to_message_kernel(T* __restrict__ volume, int width, int count, int stride, float slope,
                           float cap) {
  extern __shared__ float tile[];
  const int x0 = blockIdx.x * kTilePixels;
  const int pixels = min(kTilePixels, width - x0);
  T* row = volume + (static_cast<size_t>(blockIdx.y) * width + x0) * count;
  const int n = pixels * count;
  for (int e = threadIdx.x; e < n; e += kThreads) {
    const int i = e / count;
    tile[i * stride + (e - i * count)] = load_cost(row + e);
  }
  __syncthreads();
  if (threadIdx.x < pixels) cost_to_message_sequential(tile + threadIdx.x * stride, count, slope, cap);
  __syncthreads();
  for (int e = threadIdx.x; e < n; e += kThreads) {
    const int i = e / count;
    store_cost(row + e, tile[i * stride + (e - i * count)]);
  }
}

void check_settings(int count, const MessageSettings& settings) {
  require_valid_message_settings(settings);
  if (count > kMaxAdaptiveWeightCount) {
    throw InputError("ESMP on the GPU: at most " + std::to_string(kMaxAdaptiveWeightCount) +
                     " candidates per pixel, got " + std::to_string(count));
  }
}

template <typename T>
void launch(T* volume, int width, int height, int count, const MessageSettings& settings,
            cudaStream_t stream) {
  check_settings(count, settings);
  if (width <= 0 || height <= 0 || count <= 0) return;
  const int stride = tile_stride(count);
  const dim3 grid((width + kTilePixels - 1) / kTilePixels, height);
  const size_t shared = sizeof(float) * kTilePixels * stride;
  cost_to_message_kernel<<<grid, kThreads, shared, stream>>>(volume, width, count, stride,
                                                             settings.slope, settings.cap);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void cost_to_message(float* volume, int width, int height, int count,
                     const MessageSettings& settings, cudaStream_t stream) {
  launch(volume, width, height, count, settings, stream);
}

void cost_to_message(__half* volume, int width, int height, int count,
                     const MessageSettings& settings, cudaStream_t stream) {
  launch(volume, width, height, count, settings, stream);
}

}  // namespace sv::cuda
