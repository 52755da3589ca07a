// Census transform with validity masks on the GPU, for 8-bit, 16-bit and float input; reproduces
// census_transform.cpp bit for bit (its header comment holds the exact definition: bit order,
// strict < on the native values, valid bits, missing pixels).
#include <string>
#include <type_traits>

#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kTileWidth = 32;
constexpr int kTileHeight = 8;

// How each input type sits in the shared tile, with one value standing for "no data" (outside
// the image or missing) that no real pixel takes: the all-ones value of a wider unsigned type for
// the integer inputs, NaN for float (a NaN input is missing anyway). `Missing` is the launcher's
// type of the designated missing value. kSignCompare: the difference of two real values is
// negative exactly when the first is smaller, so its sign bit is the census bit.
template <typename Pixel>
struct CensusTile;

template <>
struct CensusTile<uint8_t> {
  using Value = uint16_t;
  using Missing = int;
  static constexpr bool kSignCompare = true;
  __device__ static Value no_data() { return 0xFFFF; }
  __device__ static bool is_no_data(Value v) { return v > 0xFF; }
  // missing_value -1 never equals a byte.
  __device__ static Value load(uint8_t p, int missing) { return p == missing ? no_data() : p; }
};

template <>
struct CensusTile<uint16_t> {
  using Value = uint32_t;
  using Missing = int;
  static constexpr bool kSignCompare = true;
  __device__ static Value no_data() { return 0xFFFFFFFFu; }
  __device__ static bool is_no_data(Value v) { return v > 0xFFFF; }
  __device__ static Value load(uint16_t p, int missing) { return p == missing ? no_data() : p; }
};

template <>
struct CensusTile<float> {
  using Value = float;
  using Missing = float;
  static constexpr bool kSignCompare = false;  // inf - inf is NaN
  __device__ static Value no_data() { return __int_as_float(0x7fc00000); }  // quiet NaN
  __device__ static bool is_no_data(Value v) { return isnan(v); }
  // A NaN missing value equals nothing: then only the NaN pixels are missing.
  __device__ static Value load(float p, float missing) {
    return (isnan(p) || p == missing) ? no_data() : p;
  }
};

// Designed around memory bandwidth: each input pixel is read once per tile into shared memory,
// then every thread compares its centre with the W x H neighbours from the tile.
template <typename Pixel, int RX, int RY>
__global__ void census_transform_kernel(const Pixel* __restrict__ image, int width, int height,
                                        typename CensusTile<Pixel>::Missing missing_value,
                                        CensusCode* __restrict__ out) {
  using Tile = CensusTile<Pixel>;
  using Value = typename Tile::Value;
  constexpr int kW = kTileWidth + 2 * RX;
  constexpr int kH = kTileHeight + 2 * RY;
  __shared__ Value tile[kH][kW];

  const int x0 = blockIdx.x * kTileWidth - RX;
  const int y0 = blockIdx.y * kTileHeight - RY;
  bool all_data = true;
  // Every thread stages at most ceil(kH / kTileHeight) x ceil(kW / kTileWidth) values.
#pragma unroll
  for (int r = 0; r < (kH + kTileHeight - 1) / kTileHeight; ++r) {
    const int ty = static_cast<int>(threadIdx.y) + r * kTileHeight;
#pragma unroll
    for (int c = 0; c < (kW + kTileWidth - 1) / kTileWidth; ++c) {
      const int tx = static_cast<int>(threadIdx.x) + c * kTileWidth;
      if (ty >= kH || tx >= kW) continue;
      const int gx = x0 + tx, gy = y0 + ty;
      Value value = Tile::no_data();
      if (gx >= 0 && gx < width && gy >= 0 && gy < height) {
        value = Tile::load(image[static_cast<size_t>(gy) * width + gx], missing_value);
      }
      all_data = all_data && !Tile::is_no_data(value);
      tile[ty][tx] = value;
    }
  }
  // Most tiles lie inside the image and hold no missing pixel: there every bit is valid and the
  // comparisons need no data checks (the kernel is bound by issued instructions, not by DRAM).
  const bool complete = __syncthreads_and(all_data);

  const int x = blockIdx.x * kTileWidth + threadIdx.x;
  const int y = blockIdx.y * kTileHeight + threadIdx.y;
  if (x >= width || y >= height) return;

  const Value centre = tile[threadIdx.y + RY][threadIdx.x + RX];
  uint64_t bits[2] = {0, 0};
  uint64_t valid[2] = {0, 0};
  constexpr int kBits = (2 * RX + 1) * (2 * RY + 1) - 1;
  // Visits every neighbour of the window with its bit, a compile-time constant after unrolling:
  // row-major, skipping the centre, in ascending or (kDescending) descending bit order.
  auto for_each_neighbour = [&](auto descending, auto visit) {
    constexpr bool kDescending = decltype(descending)::value;
#pragma unroll
    for (int i = 0; i < (2 * RX + 1) * (2 * RY + 1); ++i) {
      const int pos = kDescending ? (2 * RX + 1) * (2 * RY + 1) - 1 - i : i;
      const int dy = pos / (2 * RX + 1) - RY, dx = pos % (2 * RX + 1) - RX;
      if (dx == 0 && dy == 0) continue;
      visit(pos < RY * (2 * RX + 1) + RX ? pos : pos - 1, tile[threadIdx.y + RY + dy][threadIdx.x + RX + dx]);
    }
  };
  using Ascending = std::false_type;
  using Descending = std::true_type;
  if (complete && Tile::kSignCompare) {
    // Each bit is the sign of neighbour - centre, shifted in at the bottom of its 32-bit word
    // (one funnel shift): visited in descending order, every bit ends at its place.
    uint32_t words[4] = {0, 0, 0, 0};
    for_each_neighbour(Descending{}, [&](int bit, Value neighbour) {
      const uint32_t difference = static_cast<uint32_t>(static_cast<int>(neighbour) - static_cast<int>(centre));
      words[bit / 32] = __funnelshift_l(difference, words[bit / 32], 1);
    });
    bits[0] = words[0] | static_cast<uint64_t>(words[1]) << 32;
    bits[1] = words[2] | static_cast<uint64_t>(words[3]) << 32;
  } else if (complete) {
    for_each_neighbour(Ascending{}, [&](int bit, Value neighbour) {
      bits[bit / 64] |= static_cast<uint64_t>(neighbour < centre) << (bit % 64);
    });
  } else if (!Tile::is_no_data(centre)) {
    for_each_neighbour(Ascending{}, [&](int bit, Value neighbour) {
      const uint64_t mask = uint64_t{1} << (bit % 64);
      if (!Tile::is_no_data(neighbour)) {
        valid[bit / 64] |= mask;
        if (neighbour < centre) bits[bit / 64] |= mask;
      }
    });
  }
  if (complete) {
    valid[0] = kBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
    valid[1] = kBits > 64 ? (uint64_t{1} << (kBits - 64)) - 1 : 0;
  }
  // Two 16-byte stores (a CensusCode is 32 bytes at a 32-byte stride from a cudaMalloc base).
  CensusCode& code = out[static_cast<size_t>(y) * width + x];
  *reinterpret_cast<ulonglong2*>(code.bits) = make_ulonglong2(bits[0], bits[1]);
  *reinterpret_cast<ulonglong2*>(code.valid) = make_ulonglong2(valid[0], valid[1]);
}

template <typename Pixel, int RX, int RY>
void launch_census(const Pixel* image, int width, int height,
                   typename CensusTile<Pixel>::Missing missing_value, CensusCode* out,
                   cudaStream_t stream) {
  const dim3 block(kTileWidth, kTileHeight);
  const dim3 grid((width + kTileWidth - 1) / kTileWidth, (height + kTileHeight - 1) / kTileHeight);
  census_transform_kernel<Pixel, RX, RY>
      <<<grid, block, 0, stream>>>(image, width, height, missing_value, out);
  SV_CUDA_CHECK_LAUNCH();
}

// The single point where the run-time window becomes compile-time radii.
template <typename Pixel>
void dispatch_census(const Pixel* image, int width, int height, CensusWindow window,
                     typename CensusTile<Pixel>::Missing missing_value, CensusCode* out,
                     cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  switch (window) {
    case CensusWindow::W5x5:
      return launch_census<Pixel, 2, 2>(image, width, height, missing_value, out, stream);
    case CensusWindow::W7x7:
      return launch_census<Pixel, 3, 3>(image, width, height, missing_value, out, stream);
    case CensusWindow::W9x7:
      return launch_census<Pixel, 4, 3>(image, width, height, missing_value, out, stream);
    case CensusWindow::W9x9:
      return launch_census<Pixel, 4, 4>(image, width, height, missing_value, out, stream);
    case CensusWindow::W11x11:
      return launch_census<Pixel, 5, 5>(image, width, height, missing_value, out, stream);
  }
  throw InputError("census: unknown window");
}

void check_integer_missing_value(int missing_value, int max_value) {
  if (missing_value < -1 || missing_value > max_value) {
    throw InputError("census missing value must be -1 (none) or 0.." + std::to_string(max_value) +
                     ", got " + std::to_string(missing_value));
  }
}

}  // namespace

void census_transform(const uint8_t* image, int width, int height, CensusWindow window,
                      int missing_value, CensusCode* out, cudaStream_t stream) {
  check_integer_missing_value(missing_value, 255);
  dispatch_census(image, width, height, window, missing_value, out, stream);
}

void census_transform(const uint16_t* image, int width, int height, CensusWindow window,
                      int missing_value, CensusCode* out, cudaStream_t stream) {
  check_integer_missing_value(missing_value, 65535);
  dispatch_census(image, width, height, window, missing_value, out, stream);
}

void census_transform(const float* image, int width, int height, CensusWindow window,
                      float missing_value, CensusCode* out, cudaStream_t stream) {
  dispatch_census(image, width, height, window, missing_value, out, stream);
}

}  // namespace sv::cuda
