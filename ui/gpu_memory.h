#pragma once

#include <string>

namespace sv {

// "used / total" of the CUDA device's memory for the timings panel, or why it is not known
// (a build without CUDA, no device).
std::string gpu_memory_text();

}  // namespace sv
