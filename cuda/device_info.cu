#include "cuda/device_info.h"

#include <cuda_runtime.h>

namespace sv::cuda {

DeviceInfo query_device() {
  DeviceInfo info;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    info.reason = std::string("no usable CUDA device (") + cudaGetErrorName(status) + ": " +
                  cudaGetErrorString(status) + ")";
    cudaGetLastError();  // clear the sticky error so later calls start clean
    return info;
  }
  if (count == 0) {
    info.reason = "no CUDA device present";
    return info;
  }
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess) {
    info.reason = "cannot read the properties of CUDA device 0";
    return info;
  }
  info.available = true;
  info.name = props.name;
  info.compute_major = props.major;
  info.compute_minor = props.minor;
  return info;
}

}  // namespace sv::cuda
