#pragma once

#include <cstddef>

namespace sv {

// memcpy of a large block on a few threads: one core cannot saturate the memory bandwidth, and
// the frame loops copy every pair into staging and every result out of it (megabytes a frame).
// Small blocks are copied on the calling thread.
void parallel_copy(void* destination, const void* source, size_t bytes);

}  // namespace sv
