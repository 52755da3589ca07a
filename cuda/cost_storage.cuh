#pragma once

// Loads and stores of the float cost volumes of ESAW / ESMP, kept as float or as __half
// (StereoParams::half_costs). Arithmetic is float either way; a value is rounded to half (to
// nearest, ties to even, as round_to_half in src/core/half_float.h) only when it is stored.

#include <cuda_fp16.h>

#include <type_traits>

namespace sv::cuda {

__device__ __forceinline__ float load_cost(const float* p) { return *p; }
__device__ __forceinline__ float load_cost(const __half* p) { return __half2float(*p); }

__device__ __forceinline__ void store_cost(float* p, float value) { *p = value; }
__device__ __forceinline__ void store_cost(__half* p, float value) { *p = __float2half_rn(value); }

// The value a half store would keep, as float: what the CPU reference's round_to_half gives.
__device__ __forceinline__ float round_to_half(float value) {
  return __half2float(__float2half_rn(value));
}

}  // namespace sv::cuda
