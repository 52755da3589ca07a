// Census transform with validity masks on the GPU; reproduces census_transform.cpp bit for bit
// (its header comment holds the exact definition: bit order, strict <, valid bits, missing).
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kTileWidth = 32;
constexpr int kTileHeight = 8;
// Stands for "no data" in the shared tile: outside the image or equal to the missing value.
constexpr int kNoData = -1;

// Designed around memory bandwidth: each input byte is read once per tile into shared memory,
// then every thread compares its centre with the W x H neighbours from the tile.
template <int RX, int RY>
__global__ void census_transform_kernel(const uint8_t* __restrict__ image, int width, int height,
                                        int missing_value, CensusCode* __restrict__ out) {
  constexpr int kW = kTileWidth + 2 * RX;
  constexpr int kH = kTileHeight + 2 * RY;
  __shared__ int16_t tile[kH][kW];

  const int x0 = blockIdx.x * kTileWidth - RX;
  const int y0 = blockIdx.y * kTileHeight - RY;
  const int tid = threadIdx.y * kTileWidth + threadIdx.x;
  for (int i = tid; i < kW * kH; i += kTileWidth * kTileHeight) {
    const int gx = x0 + i % kW;
    const int gy = y0 + i / kW;
    int value = kNoData;
    if (gx >= 0 && gx < width && gy >= 0 && gy < height) {
      value = image[static_cast<size_t>(gy) * width + gx];
      if (value == missing_value) value = kNoData;  // missing_value -1 never equals a byte
    }
    tile[i / kW][i % kW] = static_cast<int16_t>(value);
  }
  __syncthreads();

  const int x = blockIdx.x * kTileWidth + threadIdx.x;
  const int y = blockIdx.y * kTileHeight + threadIdx.y;
  if (x >= width || y >= height) return;

  const int centre = tile[threadIdx.y + RY][threadIdx.x + RX];
  uint64_t bits[2] = {0, 0};
  uint64_t valid[2] = {0, 0};
  if (centre != kNoData) {
#pragma unroll
    for (int dy = -RY; dy <= RY; ++dy) {
#pragma unroll
      for (int dx = -RX; dx <= RX; ++dx) {
        if (dx == 0 && dy == 0) continue;
        // Row-major position skipping the centre: a compile-time constant after unrolling.
        const int pos = (dy + RY) * (2 * RX + 1) + (dx + RX);
        const int bit = pos < RY * (2 * RX + 1) + RX ? pos : pos - 1;
        const int neighbour = tile[threadIdx.y + RY + dy][threadIdx.x + RX + dx];
        const uint64_t mask = uint64_t{1} << (bit % 64);
        if (neighbour != kNoData) {
          valid[bit / 64] |= mask;
          if (neighbour < centre) bits[bit / 64] |= mask;
        }
      }
    }
  }
  CensusCode& code = out[static_cast<size_t>(y) * width + x];
  code.bits[0] = bits[0];
  code.bits[1] = bits[1];
  code.valid[0] = valid[0];
  code.valid[1] = valid[1];
}

template <int RX, int RY>
void launch_census(const uint8_t* image, int width, int height, int missing_value,
                   CensusCode* out, cudaStream_t stream) {
  const dim3 block(kTileWidth, kTileHeight);
  const dim3 grid((width + kTileWidth - 1) / kTileWidth, (height + kTileHeight - 1) / kTileHeight);
  census_transform_kernel<RX, RY><<<grid, block, 0, stream>>>(image, width, height, missing_value,
                                                               out);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void census_transform(const uint8_t* image, int width, int height, CensusWindow window,
                      int missing_value, CensusCode* out, cudaStream_t stream) {
  if (missing_value < -1 || missing_value > 255) {
    throw InputError("census missing value must be -1 (none) or 0..255, got " +
                     std::to_string(missing_value));
  }
  if (width <= 0 || height <= 0) return;
  switch (window) {
    case CensusWindow::W5x5: return launch_census<2, 2>(image, width, height, missing_value, out, stream);
    case CensusWindow::W7x7: return launch_census<3, 3>(image, width, height, missing_value, out, stream);
    case CensusWindow::W9x7: return launch_census<4, 3>(image, width, height, missing_value, out, stream);
    case CensusWindow::W9x9: return launch_census<4, 4>(image, width, height, missing_value, out, stream);
  }
  throw InputError("census: unknown window");
}

}  // namespace sv::cuda
