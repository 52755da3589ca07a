// The combined confidence on the GPU: cost peaks (where the selection is not fused), texture,
// the per-pixel combination and the threshold. Reproduces src/core/confidence.cpp through the
// shared per-pixel arithmetic of confidence_math.h (compiled with -fmad=false, see CMakeLists).
// Every kernel is one thread per pixel and memory bound; only cost_peaks reads a whole cost
// volume (uncoalesced, a pixel's candidates per thread), and it runs only on the general path
// (per-pixel ranges, 32-bit and float costs) when the confidence is asked for.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "cuda/confidence_stages.h"
#include "cuda/cuda_check.h"
#include "src/core/confidence_math.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;
constexpr uint32_t kNoOffer = 0xffffffffu;

unsigned blocks_for(size_t pixels) {
  return static_cast<unsigned>((pixels + kThreads - 1) / kThreads);
}

template <typename T>
__device__ __forceinline__ bool is_real_cost(T c) {
  if constexpr (std::is_floating_point<T>::value) {
    return isfinite(c);
  } else {
    return c != std::numeric_limits<T>::max();
  }
}

template <typename T>
__global__ void cost_peaks_kernel(const T* __restrict__ costs, size_t pixels, int count,
                                  float2* __restrict__ peaks) {
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  const T* c = costs + p * count;
  int kb = 0;
  for (int k = 1; k < count; ++k) {
    if (c[k] < c[kb]) kb = k;
  }
  float2 out = make_float2(INFINITY, INFINITY);
  if (count > 0 && is_real_cost(c[kb])) {
    out.x = static_cast<float>(c[kb]);
    bool found = false;
    T other{};
    for (int k = 0; k < count; ++k) {
      if (abs(k - kb) <= 1 || !is_real_cost(c[k])) continue;
      if (!found || c[k] < other) other = c[k];
      found = true;
    }
    if (found) out.y = static_cast<float>(other);
  }
  peaks[p] = out;
}

__global__ void right_view_from_keys_kernel(const uint32_t* __restrict__ keys, size_t pixels,
                                            int base, int16_t* __restrict__ right_fixed) {
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  const uint32_t key = keys[p];
  right_fixed[p] =
      key == kNoOffer
          ? kInvalidFixedDisparity
          : static_cast<int16_t>((base + static_cast<int>(key & 0xFFu)) * kDisparityScale);
}

// Two sweeps over the window per pixel (sum, then deviations); the window's rows stay in L1.
__global__ void texture_kernel(const uint8_t* __restrict__ image, int width, int height, int rx,
                               int ry, float* __restrict__ texture) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int n = (2 * rx + 1) * (2 * ry + 1);
  int sum = 0;
  for (int dy = -ry; dy <= ry; ++dy) {
    const uint8_t* row = image + static_cast<size_t>(min(max(y + dy, 0), height - 1)) * width;
    for (int dx = -rx; dx <= rx; ++dx) sum += __ldg(row + min(max(x + dx, 0), width - 1));
  }
  uint32_t deviations = 0;
  for (int dy = -ry; dy <= ry; ++dy) {
    const uint8_t* row = image + static_cast<size_t>(min(max(y + dy, 0), height - 1)) * width;
    for (int dx = -rx; dx <= rx; ++dx) {
      deviations +=
          static_cast<uint32_t>(abs(n * __ldg(row + min(max(x + dx, 0), width - 1)) - sum));
    }
  }
  texture[static_cast<size_t>(y) * width + x] = confidence_math::texture_from_sums(deviations, n);
}

__global__ void combined_confidence_kernel(const int16_t* __restrict__ disparity_fixed,
                                           const float2* __restrict__ peaks,
                                           const float* __restrict__ texture,
                                           const int16_t* __restrict__ right_view, int width,
                                           size_t pixels, ConfidenceSettings settings,
                                           float* __restrict__ confidence) {
  namespace cm = confidence_math;
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  const int16_t d = disparity_fixed[p];
  const float2 peak = peaks[p];
  if (d == kInvalidFixedDisparity || peak.x == INFINITY) {
    confidence[p] = 0.0f;
    return;
  }
  float lr = 1.0f;
  if (right_view != nullptr) {
    const int x = static_cast<int>(p % width);
    const int xr = x - cm::floor_div16(d + kDisparityScale / 2);
    const bool inside = xr >= 0 && xr < width;
    lr = cm::lr_consistency_term(
        d, inside, inside ? right_view[p - x + xr] : kInvalidFixedDisparity, settings.lr_max_diff);
  }
  confidence[p] = cm::combine(
      cm::peak_ratio_term(peak.x, peak.y), cm::matching_score_term(peak.x, settings.cost_ceiling),
      cm::feature_density_term(texture[p], settings.texture_saturation), lr);
}

__global__ void threshold_kernel(int16_t* __restrict__ disparity_fixed,
                                 const float* __restrict__ confidence, size_t pixels,
                                 float threshold) {
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p < pixels && confidence[p] < threshold) disparity_fixed[p] = kInvalidFixedDisparity;
}

}  // namespace

template <typename T>
void cost_peaks(const T* costs, int width, int height, int count, float2* peaks,
                cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  cost_peaks_kernel<T><<<blocks_for(pixels), kThreads, 0, stream>>>(costs, pixels, count, peaks);
  SV_CUDA_CHECK_LAUNCH();
}

template void cost_peaks(const uint8_t*, int, int, int, float2*, cudaStream_t);
template void cost_peaks(const uint16_t*, int, int, int, float2*, cudaStream_t);
template void cost_peaks(const uint32_t*, int, int, int, float2*, cudaStream_t);
template void cost_peaks(const float*, int, int, int, float2*, cudaStream_t);

void right_view_from_keys(const uint32_t* keys, int width, int height, int base,
                          int16_t* right_fixed, cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  right_view_from_keys_kernel<<<blocks_for(pixels), kThreads, 0, stream>>>(keys, pixels, base,
                                                                           right_fixed);
  SV_CUDA_CHECK_LAUNCH();
}

void texture_deviation(const uint8_t* image, int width, int height, int window_width,
                       int window_height, float* texture, cudaStream_t stream) {
  if (window_width < 1 || window_height < 1 || window_width % 2 == 0 || window_height % 2 == 0) {
    throw InputError("Texture window must have odd positive sides, got " +
                     std::to_string(window_width) + "x" + std::to_string(window_height) + ".");
  }
  if (width <= 0 || height <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  texture_kernel<<<grid, block, 0, stream>>>(image, width, height, window_width / 2,
                                             window_height / 2, texture);
  SV_CUDA_CHECK_LAUNCH();
}

void combined_confidence(const int16_t* disparity_fixed, const float2* peaks, const float* texture,
                         const int16_t* right_view, int width, int height,
                         const ConfidenceSettings& settings, float* confidence,
                         cudaStream_t stream) {
  if (!(settings.cost_ceiling > 0.0f) || !(settings.texture_saturation > 0.0f) ||
      settings.lr_max_diff < 0) {
    throw InputError(
        "Confidence: the cost ceiling and texture saturation must be positive and "
        "lr_max_diff not negative.");
  }
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  combined_confidence_kernel<<<blocks_for(pixels), kThreads, 0, stream>>>(
      disparity_fixed, peaks, texture, right_view, width, pixels, settings, confidence);
  SV_CUDA_CHECK_LAUNCH();
}

void apply_confidence_threshold(int16_t* disparity_fixed, const float* confidence, int width,
                                int height, float threshold, cudaStream_t stream) {
  if (!(threshold >= 0.0f && threshold <= 1.0f)) {
    throw InputError("Confidence threshold must be in 0..1, got " + std::to_string(threshold) +
                     ".");
  }
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0 || threshold == 0.0f) return;
  threshold_kernel<<<blocks_for(pixels), kThreads, 0, stream>>>(disparity_fixed, confidence, pixels,
                                                                threshold);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
