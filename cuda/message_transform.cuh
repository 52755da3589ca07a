#pragma once

// The min-sum cost-to-message transform of one pixel (esmp_messages.cpp, eqs. 17-21), run by one
// thread over values in shared memory. Sequential on purpose: the reference adds c one
// candidate at a time, and a parallel scan would round differently.

namespace sv::cuda {

// std::min's choice: the second only when strictly smaller.
__device__ __forceinline__ float lesser(float a, float b) { return b < a ? b : a; }

// In place over m[0 .. count-1]; the same additions, rounded alike (__fadd_rn), as the CPU.
__device__ inline void cost_to_message_sequential(float* m, int count, float slope, float cap) {
  if (count <= 0) return;
  float lowest = m[0];
  for (int d = 1; d < count; ++d) lowest = lesser(lowest, m[d]);
  const float h = __fadd_rn(lowest, cap);
  float running = m[0];
  for (int d = 1; d < count; ++d) {
    running = lesser(__fadd_rn(running, slope), m[d]);
    m[d] = running;
  }
  running = lesser(m[count - 1], h);
  m[count - 1] = running;
  for (int d = count - 2; d >= 0; --d) {
    running = lesser(lesser(__fadd_rn(running, slope), m[d]), h);
    m[d] = running;
  }
}

}  // namespace sv::cuda
