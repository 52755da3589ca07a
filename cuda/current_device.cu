#include "cuda/current_device.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

const CurrentDevice& current_device() {
  thread_local CurrentDevice known;
  int device = 0;
  SV_CUDA_CHECK(cudaGetDevice(&device));
  if (device != known.ordinal) {
    CurrentDevice fresh;
    fresh.ordinal = device;
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&fresh.sms, cudaDevAttrMultiProcessorCount, device));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&fresh.l2_bytes, cudaDevAttrL2CacheSize, device));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&fresh.compute_major, cudaDevAttrComputeCapabilityMajor, device));
    known = fresh;
  }
  return known;
}

int OccupancyCache::query(const void* kernel, int threads) {
  int blocks = 0;
  SV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
  return blocks;
}

void SharedMemoryOptIn::set(const void* kernel, size_t bytes) {
  SV_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace sv::cuda
