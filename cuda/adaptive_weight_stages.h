#pragma once

// Host launchers of the ESAW / ESMP stages (Yu et al. 2009) on the GPU. Conventions as in
// stages.h: device pointers, dense images, cost volumes [y][x][k], asynchronous on `stream`,
// every launch checked, nothing synchronizes.
//
// Cost storage: float, or __half when EsawSettings::half_storage (StereoParams::half_costs) is
// set. The arithmetic is float either way, and every value is rounded to half exactly where
// the CPU reference rounds it (round_to_half, src/core/half_float.h), so the two agree.
//
// Agreement with the CPU reference: these kernels evaluate each definition with the same float
// operations in the same order (no FMA contraction: __fmul_rn / __fadd_rn / __fdiv_rn), and
// the adaptive weights come from the same host-built table (esaw_side_weights), so they
// reproduce truncated_ad_cost.cpp, esmp_messages.cpp, esaw_aggregation.cpp and
// esmp_aggregation.cpp bit for bit on a host that does not contract a * b + c either. The
// tolerance the tests hold them to is stated in tests/gpu/adaptive_weight_test.cpp.

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/stages.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_messages.h"
#include "src/core/image.h"

namespace sv::cuda {

// The image the adaptive weights compare (esaw_aggregation.cpp, "guide distance D"): the left
// gray image (1 byte a pixel), or the left colour image (3 bytes, R G B, as ImageRgb8 stores
// it). Dense, width * height pixels, on the device.
struct WeightGuide {
  // Implicit: a gray plane is the common guide.
  WeightGuide(const uint8_t* gray) : pixels(gray), channels(1) {}  // NOLINT(google-explicit-constructor)
  static WeightGuide colour(const Rgb8* rgb) {
    static_assert(sizeof(Rgb8) == 3, "ImageRgb8 must hold 3 bytes a pixel");
    WeightGuide guide(reinterpret_cast<const uint8_t*>(rgb));
    guide.channels = 3;
    return guide;
  }
  const uint8_t* pixels;
  int channels;  // 1 or 3
};

// truncated_ad_cost.cu — truncated_ad_cost.cpp: lambda * min(|IL - IR|, tau), lambda * tau
// where the match lies outside the right image.
void truncated_ad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height,
                              DeviceSearchRange range, float lambda, float tau, float* costs,
                              cudaStream_t stream);
void truncated_ad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height,
                              DeviceSearchRange range, float lambda, float tau, __half* costs,
                              cudaStream_t stream);

// esmp_messages.cu — cost_to_message (esmp_messages.cpp) on every pixel, in place.
// count <= kMaxAdaptiveWeightCount.
void cost_to_message(float* volume, int width, int height, int count,
                     const MessageSettings& settings, cudaStream_t stream);
void cost_to_message(__half* volume, int width, int height, int count,
                     const MessageSettings& settings, cudaStream_t stream);

// The most candidates per pixel these stages handle: one block keeps 32 pixels' candidates in
// shared memory for the message transform (32 x 257 floats fit the default 48 KB).
constexpr int kMaxAdaptiveWeightCount = 256;

// esaw_aggregation.cu — one esaw_pass (esaw_aggregation.cpp; gray or colour guide) from `in` to
// `out`; with `messages_after` the pass's output goes through cost_to_message before it is stored (ESMP's
// next step, fused so the volume is not read and written once more). Overloads for float
// storage, half storage, and half in / float out (the last pass of half storage: the selection
// reads float). `in` and `out` must not overlap.
void esaw_pass(const float* in, float* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream);
void esaw_pass(const __half* in, __half* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream);
void esaw_pass(const __half* in, float* out, WeightGuide guide, int width, int height,
               DeviceSearchRange range, int step, PassDirection direction, float gamma_c,
               float gamma_p, const MessageSettings* messages_after, cudaStream_t stream);

// The volumes of one aggregation, each width * height * count values. Float storage uses
// `costs` (the cost volume in, the aggregated costs out) and `scratch`; half storage uses
// `costs_half` (the cost volume in), `scratch_half`, and writes the aggregated costs, as float,
// to `costs`. Unused pointers may be null.
struct AdaptiveWeightVolumes {
  float* costs = nullptr;
  float* scratch = nullptr;
  __half* costs_half = nullptr;
  __half* scratch_half = nullptr;
};

// esaw_aggregation.cu — esaw_aggregate (esaw_aggregation.cpp), or with `messages` non-null
// esmp_aggregate (esmp_aggregation.cpp). Throws InputError for bad settings, a count above
// kMaxAdaptiveWeightCount or a missing volume.
void adaptive_weight_aggregate(const AdaptiveWeightVolumes& volumes, WeightGuide guide,
                               int width, int height, DeviceSearchRange range,
                               const EsawSettings& settings, const MessageSettings* messages,
                               cudaStream_t stream);

}  // namespace sv::cuda
