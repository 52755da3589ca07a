#pragma once

// Marks small inline functions of the core that the CUDA kernels call too, so one definition
// serves both engines; plain inline functions in a host-only build.
#ifdef __CUDACC__
#define SV_HOST_DEVICE __host__ __device__
#else
#define SV_HOST_DEVICE
#endif
