// The temporal filter (temporal_filter.cpp): the per-pixel rule of temporal_filter_math.h, one
// thread per pixel. Memory bound: 5 bytes read and 5 written per pixel, nothing shared.

#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/temporal_filter_math.h"

namespace sv::cuda {
namespace {

constexpr int kTemporalThreads = 256;

__global__ void __launch_bounds__(kTemporalThreads)
    temporal_filter_kernel(int16_t* disparity, int16_t* previous, uint8_t* age, size_t pixels,
                           bool fresh, TemporalFilterSettings settings) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  int16_t held = fresh ? kTemporalInvalid : previous[i];
  uint8_t held_age = fresh ? uint8_t{0} : age[i];
  disparity[i] = temporal_filter_pixel(disparity[i], held, held_age, settings);
  previous[i] = held;
  age[i] = held_age;
}

}  // namespace

void temporal_filter(int16_t* disparity_fixed, int16_t* previous, uint8_t* age, int width,
                     int height, bool fresh, const TemporalFilterSettings& settings,
                     cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  const unsigned blocks = static_cast<unsigned>((pixels + kTemporalThreads - 1) / kTemporalThreads);
  temporal_filter_kernel<<<blocks, kTemporalThreads, 0, stream>>>(disparity_fixed, previous, age,
                                                                  pixels, fresh, settings);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
