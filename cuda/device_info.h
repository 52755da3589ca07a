#pragma once

#include <string>

namespace sv::cuda {

// What the CUDA runtime reports about device 0, without throwing: a machine with the toolkit but
// no GPU (CI) gets available == false and the runtime's reason.
struct DeviceInfo {
  bool available = false;
  std::string name;     // e.g. "NVIDIA H100 80GB HBM3"
  int compute_major = 0;
  int compute_minor = 0;
  std::string reason;   // why not available
};

DeviceInfo query_device();

}  // namespace sv::cuda
