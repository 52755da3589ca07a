#pragma once

#include <type_traits>

// Minimum over a full warp (int or unsigned): the redux instruction where the GPU has it
// (sm_80+), a shuffle butterfly before (sm_75). Every lane gets the result.
namespace sv::cuda {

template <typename T>
__device__ __forceinline__ T warp_min(T value) {
  static_assert(std::is_same<T, int>::value || std::is_same<T, unsigned>::value, "int or unsigned");
#if __CUDA_ARCH__ >= 800
  return __reduce_min_sync(0xffffffffu, value);
#else
  for (int offset = 16; offset > 0; offset /= 2) {
    value = min(value, __shfl_xor_sync(0xffffffffu, value, offset));
  }
  return value;
#endif
}

}  // namespace sv::cuda
