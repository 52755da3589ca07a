#pragma once

// Resident threads per SM of the architecture being compiled (the CUDA programming guide's
// table), for __launch_bounds__ that ask for a full SM: ptxas ignores, with a warning, a bound
// the SM cannot reach. The host pass sees the largest value; it does not use it.
namespace sv::cuda {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kMaxThreadsPerSm = 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
constexpr int kMaxThreadsPerSm = 1536;
#else
constexpr int kMaxThreadsPerSm = 2048;
#endif

}  // namespace sv::cuda
