// Confidence-driven outlier repair on the GPU: src/core/disparity_repair.cpp's three passes
// (horizontal, vertical, horizontal), each reading the previous pass's images and writing the
// other pair, one thread per pixel through the shared rule confidence_math::repair_pixel. Latency
// bound: a thread scans at most 2 x radius neighbours, which neighbouring threads also read, so
// they come from L1; the three passes cost about as much as a median filter.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/confidence_stages.h"
#include "cuda/cuda_check.h"
#include "src/core/confidence_math.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

__global__ void repair_pass_kernel(const int16_t* __restrict__ d_in, const float* __restrict__ c_in,
                                   int width, int height, bool horizontal,
                                   confidence_math::RepairRule rule, int16_t* __restrict__ d_out,
                                   float* __restrict__ c_out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const size_t p = static_cast<size_t>(y) * width + x;
  const long step = horizontal ? 1 : width;
  const int before = horizontal ? x : y;
  const int after = horizontal ? width - 1 - x : height - 1 - y;
  confidence_math::repair_pixel(d_in + p, c_in + p, step, before, after, rule, d_out + p,
                                c_out + p);
}

}  // namespace

void repair_disparity(int16_t* disparity_fixed, float* confidence, int width, int height,
                      const RepairSettings& settings, int16_t* disparity_scratch,
                      float* confidence_scratch, cudaStream_t stream) {
  if (settings.radius < 1 || settings.tolerance < 0 || !(settings.step >= 0.0f)) {
    throw InputError("Repair: radius must be >= 1, tolerance >= 0 and step >= 0, got radius " +
                     std::to_string(settings.radius) + ", tolerance " +
                     std::to_string(settings.tolerance) + ", step " +
                     std::to_string(settings.step) + ".");
  }
  if (width <= 0 || height <= 0) return;
  const confidence_math::RepairRule rule{settings.radius, settings.step, settings.tolerance};
  const dim3 block(32, 8);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  // H: images -> scratch, V: scratch -> images, H: images -> scratch.
  repair_pass_kernel<<<grid, block, 0, stream>>>(disparity_fixed, confidence, width, height, true,
                                                 rule, disparity_scratch, confidence_scratch);
  SV_CUDA_CHECK_LAUNCH();
  repair_pass_kernel<<<grid, block, 0, stream>>>(disparity_scratch, confidence_scratch, width,
                                                 height, false, rule, disparity_fixed, confidence);
  SV_CUDA_CHECK_LAUNCH();
  repair_pass_kernel<<<grid, block, 0, stream>>>(disparity_fixed, confidence, width, height, true,
                                                 rule, disparity_scratch, confidence_scratch);
  SV_CUDA_CHECK_LAUNCH();
  const size_t pixels = static_cast<size_t>(width) * height;
  SV_CUDA_CHECK(cudaMemcpyAsync(disparity_fixed, disparity_scratch, pixels * sizeof(int16_t),
                                cudaMemcpyDeviceToDevice, stream));
  SV_CUDA_CHECK(cudaMemcpyAsync(confidence, confidence_scratch, pixels * sizeof(float),
                                cudaMemcpyDeviceToDevice, stream));
}

}  // namespace sv::cuda
