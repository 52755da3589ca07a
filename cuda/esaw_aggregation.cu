// ESAW / ESMP aggregation on the GPU (Yu et al. 2009 §III); reproduces esaw_aggregation.cpp and
// esmp_aggregation.cpp bit for bit: the side weights come from the host-built table the CPU
// reads too (esaw_side_weights, passed by value as a __grid_constant__ parameter), indexed by
// the same integer guide distance (gray difference, or the largest RGB channel difference), the
// normalization is the same IEEE division, and every product and sum is rounded on its own
// (__fmul_rn / __fadd_rn: no FMA contraction) in the reference's order.
//
// A block covers 32 consecutive pixels of one row. Phase 1: one thread per pixel works out the
// three tap weights (and, with a per-pixel search range, each neighbour's candidate shift).
// Phase 2: all threads walk the 32 pixels' candidates as one contiguous run of the volume, so
// the centre and both taps are read coalesced (the taps are the same run shifted by s pixels
// or s rows) and the output is written coalesced. The pass is bound by that memory traffic.
// For ESMP the pass's output is staged in shared memory instead and the next message transform
// runs on it before the store, which saves writing and re-reading the volume in between.
#include <cuda_fp16.h>

#include <cstring>
#include <string>
#include <type_traits>

#include "cuda/adaptive_weight_stages.h"
#include "cuda/cost_storage.cuh"
#include "cuda/cuda_check.h"
#include "cuda/message_transform.cuh"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kPassPixels = 32;
constexpr int kPassThreads = 128;
constexpr int kWidenThreads = 256;
// A tap shift that puts every candidate index out of range: the tap is absent.
constexpr int kAbsentTap = -(1 << 29);

struct SideWeights {
  float w[256];  // by guide distance, esaw_side_weights
};

// The guide distance D of pixels a and b (esaw_aggregation.cpp): |gray difference| with one
// channel, the largest channel difference with three (R G B interleaved).
template <int Channels>
__device__ __forceinline__ int guide_distance(const uint8_t* __restrict__ guide, size_t a, size_t b) {
  if constexpr (Channels == 1) {
    return abs(static_cast<int>(guide[a]) - static_cast<int>(guide[b]));
  } else {
    const uint8_t* p = guide + 3 * a;
    const uint8_t* q = guide + 3 * b;
    const int r = abs(static_cast<int>(p[0]) - static_cast<int>(q[0]));
    const int g = abs(static_cast<int>(p[1]) - static_cast<int>(q[1]));
    const int bl = abs(static_cast<int>(p[2]) - static_cast<int>(q[2]));
    return max(max(r, g), bl);
  }
}

int tile_stride(int count) { return count | 1; }  // odd: conflict-free per-thread rows

// Storage rounding: half storage keeps each stored value as the nearest half, also when the last
// pass writes the result as float for the selection.
template <bool HalfStorage>
__device__ __forceinline__ float stored(float value) {
  if constexpr (HalfStorage) {
    return round_to_half(value);
  } else {
    return value;
  }
}

template <typename In, typename Out, bool Messages, int Channels>
__global__ void __launch_bounds__(kPassThreads)
    esaw_pass_kernel(const In* __restrict__ in, Out* __restrict__ out,
                     const uint8_t* __restrict__ guide, int width, int height,
                     const int16_t* __restrict__ per_pixel_base, int count, int dx, int dy,
                     const __grid_constant__ SideWeights side, float slope, float cap,
                     int stride) {
  constexpr bool kHalfStorage = std::is_same<In, __half>::value;
  // Uniform range: the normalized weights. Per-pixel range: the raw side weights, normalized per
  // candidate below, since which taps hold a candidate's disparity depends on the candidate.
  __shared__ float weight_minus[kPassPixels], weight_centre[kPassPixels], weight_plus[kPassPixels];
  __shared__ int shift_minus[kPassPixels], shift_plus[kPassPixels];
  extern __shared__ float tile[];  // ESMP: the pass's output, kPassPixels rows of `stride`

  const int y = blockIdx.y;
  const int x0 = blockIdx.x * kPassPixels;
  const int pixels = min(kPassPixels, width - x0);
  const bool per_pixel = per_pixel_base != nullptr;
  const size_t tap_pixels = static_cast<size_t>(dy) * width + dx;

  if (threadIdx.x < pixels) {
    const int i = threadIdx.x;
    const int x = x0 + i;
    const size_t p = static_cast<size_t>(y) * width + x;
    // Outside the image a tap is absent: no clamping or mirroring, as the reference.
    const bool has_minus = x - dx >= 0 && y - dy >= 0;
    const bool has_plus = x + dx < width && y + dy < height;
    const float w_minus =
        has_minus ? side.w[guide_distance<Channels>(guide, p - tap_pixels, p)] : 0.0f;
    const float w_plus =
        has_plus ? side.w[guide_distance<Channels>(guide, p + tap_pixels, p)] : 0.0f;
    if (per_pixel) {
      // Taps compare equal disparities: the neighbour's index of base(p) + k is k + shift.
      const int base = per_pixel_base[p];
      weight_minus[i] = w_minus;
      weight_plus[i] = w_plus;
      shift_minus[i] = has_minus ? base - per_pixel_base[p - tap_pixels] : kAbsentTap;
      shift_plus[i] = has_plus ? base - per_pixel_base[p + tap_pixels] : kAbsentTap;
    } else {
      const float sum = __fadd_rn(__fadd_rn(1.0f, w_minus), w_plus);
      weight_minus[i] = __fdiv_rn(w_minus, sum);
      weight_centre[i] = __fdiv_rn(1.0f, sum);
      weight_plus[i] = __fdiv_rn(w_plus, sum);
      shift_minus[i] = has_minus ? 0 : kAbsentTap;
      shift_plus[i] = has_plus ? 0 : kAbsentTap;
    }
  }
  __syncthreads();

  const size_t run = (static_cast<size_t>(y) * width + x0) * count;  // the block's first value
  const size_t tap = tap_pixels * count;
  const int n = pixels * count;
  for (int e = threadIdx.x; e < n; e += kPassThreads) {
    const int i = e / count;
    const int k = e - i * count;
    const int km = k + shift_minus[i];
    const int kp = k + shift_plus[i];
    const bool m = km >= 0 && km < count;
    const bool pl = kp >= 0 && kp < count;
    float wm, wc, wp;
    if (per_pixel) {
      const float raw_minus = m ? weight_minus[i] : 0.0f;
      const float raw_plus = pl ? weight_plus[i] : 0.0f;
      const float sum = __fadd_rn(__fadd_rn(1.0f, raw_minus), raw_plus);
      wm = __fdiv_rn(raw_minus, sum);
      wc = __fdiv_rn(1.0f, sum);
      wp = __fdiv_rn(raw_plus, sum);
    } else {
      wm = weight_minus[i];
      wc = weight_centre[i];
      wp = weight_plus[i];
    }
    const In* centre = in + run + e;
    // (w- C- + w0 C0) + w+ C+ as the reference sums it (IEEE addition commutes exactly).
    float value = __fmul_rn(wc, load_cost(centre));
    if (m) value = __fadd_rn(__fmul_rn(wm, load_cost(centre - tap + (km - k))), value);
    if (pl) value = __fadd_rn(value, __fmul_rn(wp, load_cost(centre + tap + (kp - k))));
    if constexpr (Messages) {
      tile[i * stride + k] = stored<kHalfStorage>(value);
    } else {
      store_cost(out + run + e, stored<kHalfStorage>(value));
    }
  }

  if constexpr (Messages) {
    __syncthreads();
    if (threadIdx.x < pixels) cost_to_message_sequential(tile + threadIdx.x * stride, count, slope, cap);
    __syncthreads();
    for (int e = threadIdx.x; e < n; e += kPassThreads) {
      const int i = e / count;
      store_cost(out + run + e, stored<kHalfStorage>(tile[i * stride + (e - i * count)]));
    }
  }
}

// Half storage with T = 0: the selection reads float.
__global__ void widen_kernel(const __half* __restrict__ in, float* __restrict__ out, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * kWidenThreads + threadIdx.x;
  if (i < n) out[i] = __half2float(in[i]);
}

void check_count(int count) {
  if (count > kMaxAdaptiveWeightCount) {
    throw InputError("ESAW/ESMP on the GPU: at most " + std::to_string(kMaxAdaptiveWeightCount) +
                     " candidates per pixel, got " + std::to_string(count));
  }
}

template <typename In, typename Out>
void launch_pass(const In* in, Out* out, WeightGuide guide, int width, int height,
                 DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
                 float gamma_p, const MessageSettings* messages_after, cudaStream_t stream) {
  if (step < 1) throw InputError("ESAW: the step must be >= 1, got " + std::to_string(step));
  if (!(gamma_c > 0.0f) || !(gamma_p > 0.0f)) throw InputError("ESAW: gamma-c and gamma-p must be > 0");
  if (messages_after) require_valid_message_settings(*messages_after);
  if (guide.channels != 1 && guide.channels != 3) {
    throw InputError("ESAW: the weight guide must have 1 or 3 channels, got " + std::to_string(guide.channels));
  }
  check_count(range.count);
  if (width <= 0 || height <= 0 || range.count <= 0) return;

  SideWeights side;
  const std::array<float, 256> table = esaw_side_weights(step, gamma_c, gamma_p);
  std::memcpy(side.w, table.data(), sizeof side.w);
  const int dx = direction == PassDirection::Horizontal ? step : 0;
  const int dy = direction == PassDirection::Vertical ? step : 0;
  const int stride = tile_stride(range.count);
  const dim3 grid((width + kPassPixels - 1) / kPassPixels, height);
  // The one dispatch from run-time values (message fusion, guide channels) to the kernel's.
  const auto launch = [&](auto messages, auto channels) {
    constexpr bool kMessages = decltype(messages)::value;
    constexpr int kChannels = decltype(channels)::value;
    const size_t shared = kMessages ? sizeof(float) * kPassPixels * stride : 0;
    esaw_pass_kernel<In, Out, kMessages, kChannels><<<grid, kPassThreads, shared, stream>>>(
        in, out, guide.pixels, width, height, range.per_pixel_base, range.count, dx, dy, side,
        kMessages ? messages_after->slope : 0.0f, kMessages ? messages_after->cap : 0.0f, stride);
  };
  using Gray = std::integral_constant<int, 1>;
  using Colour = std::integral_constant<int, 3>;
  if (messages_after && guide.channels == 3) {
    launch(std::true_type{}, Colour{});
  } else if (messages_after) {
    launch(std::true_type{}, Gray{});
  } else if (guide.channels == 3) {
    launch(std::false_type{}, Colour{});
  } else {
    launch(std::false_type{}, Gray{});
  }
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void esaw_pass(const float* in, float* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream) {
  launch_pass(in, out, guide, width, height, range, step, direction, gamma_c, gamma_p,
              messages_after, stream);
}

void esaw_pass(const __half* in, __half* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream) {
  launch_pass(in, out, guide, width, height, range, step, direction, gamma_c, gamma_p,
              messages_after, stream);
}

void esaw_pass(const __half* in, float* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream) {
  launch_pass(in, out, guide, width, height, range, step, direction, gamma_c, gamma_p,
              messages_after, stream);
}

void adaptive_weight_aggregate(const AdaptiveWeightVolumes& v, WeightGuide guide, int width,
                               int height, DeviceSearchRange range, const EsawSettings& settings,
                               const MessageSettings* messages, cudaStream_t stream) {
  require_valid_esaw_settings(settings);
  if (messages) require_valid_message_settings(*messages);
  check_count(range.count);
  const bool half = settings.half_storage;
  if (!v.costs || (!half && !v.scratch) || (half && (!v.costs_half || !v.scratch_half))) {
    throw InputError("ESAW/ESMP on the GPU: a volume of the aggregation is missing");
  }
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  const int iterations = settings.iterations;
  const float gc = settings.gamma_c, gp = settings.gamma_p;
  constexpr PassDirection kH = PassDirection::Horizontal, kV = PassDirection::Vertical;

  // The message before each horizontal pass is the one fused into the previous vertical pass,
  // except before the first (esmp_aggregation.cpp's order: M, H, M, V, M, H, M, V, ...).
  if (!half) {
    if (messages && iterations > 0) cost_to_message(v.costs, width, height, range.count, *messages, stream);
    for (int t = 1; t <= iterations; ++t) {
      const int step = esaw_step(t, settings.step_base);
      esaw_pass(v.costs, v.scratch, guide, width, height, range, step, kH, gc, gp, messages, stream);
      esaw_pass(v.scratch, v.costs, guide, width, height, range, step, kV, gc, gp,
                t < iterations ? messages : nullptr, stream);
    }
    return;
  }
  if (iterations == 0) {
    const size_t n = static_cast<size_t>(width) * height * range.count;
    widen_kernel<<<static_cast<unsigned>((n + kWidenThreads - 1) / kWidenThreads), kWidenThreads, 0,
                   stream>>>(v.costs_half, v.costs, n);
    SV_CUDA_CHECK_LAUNCH();
    return;
  }
  if (messages) cost_to_message(v.costs_half, width, height, range.count, *messages, stream);
  for (int t = 1; t <= iterations; ++t) {
    const int step = esaw_step(t, settings.step_base);
    esaw_pass(v.costs_half, v.scratch_half, guide, width, height, range, step, kH, gc, gp,
              messages, stream);
    if (t < iterations) {
      esaw_pass(v.scratch_half, v.costs_half, guide, width, height, range, step, kV, gc, gp,
                messages, stream);
    } else {
      esaw_pass(v.scratch_half, v.costs, guide, width, height, range, step, kV, gc, gp, nullptr,
                stream);
    }
  }
}

}  // namespace sv::cuda
