#pragma once

#include <cstdint>

#include "cuda/warp_min.cuh"

// The lanes of a warp that walk one SGM path together: kLanes consecutive lanes (8, 16 or 32),
// so that a warp advances 32 / kLanes walks at once and pays each step's fixed cost (loads,
// pointer arithmetic, the minimum's shuffles, loop bookkeeping) once for all of them.
// Every lane of the warp executes every shuffle (full mask) whatever its walk is doing; the
// shuffles stay within the group, so one walk never sees another's values.
namespace sv::cuda {

template <int kLanes>
struct LaneGroup {
  static_assert(kLanes == 8 || kLanes == 16 || kLanes == 32, "a lane group is 8, 16 or 32 lanes");
  static constexpr int kPerWarp = 32 / kLanes;
  static constexpr unsigned kFullMask = 0xffffffffu;

  int lane;  // in the warp

  __device__ __forceinline__ int rank() const { return lane % kLanes; }   // lane in its group
  __device__ __forceinline__ int index() const { return lane / kLanes; }  // group in its warp
  __device__ __forceinline__ bool first() const { return rank() == 0; }
  __device__ __forceinline__ bool last() const { return rank() == kLanes - 1; }

  // The value of the group's previous (next) lane; the first (last) lane gets its own.
  __device__ __forceinline__ uint32_t from_previous(uint32_t value) const {
    return __shfl_up_sync(kFullMask, value, 1, kLanes);
  }
  __device__ __forceinline__ uint32_t from_next(uint32_t value) const {
    return __shfl_down_sync(kFullMask, value, 1, kLanes);
  }

  // The minimum of two 16-bit halves over the group, in both halves of every lane's result.
  // A whole warp uses the redux instruction; a smaller group a butterfly within the group.
  __device__ __forceinline__ uint32_t min_pair(uint32_t pair) const {
    pair = __vminu2(pair, __byte_perm(pair, 0, 0x1032));  // the lane's minimum in both halves
    if constexpr (kLanes == 32) {
      return warp_min(pair & 0xFFFFu) * 0x10001u;
    } else {
#pragma unroll
      for (int offset = kLanes / 2; offset > 0; offset /= 2) {
        pair = __vminu2(pair, __shfl_xor_sync(kFullMask, pair, offset));
      }
      return pair;
    }
  }
};

}  // namespace sv::cuda
