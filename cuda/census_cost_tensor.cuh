#pragma once

// Census costs of complete codes on the tensor cores (sm_80 and later).
//
// The Hamming distance of two codes with no bits outside the window W is
// popc(L & ~R & W) + popc(~L & W & R), and the binary MMA m16n8k256 with AND and POPC (a BMMA
// instruction in SASS) adds exactly such counts for 16 left codes against 8 right codes at once: with L in the first 128 bits of A's rows and ~L & W in the second, ~R & W and R in B's
// columns, one MMA gives 128 distances, on top of whatever the accumulator held (the float bits of
// 2^23 for the cost's rounding FFMA). Measured on the H200 (docs/performance.md, ledger:
// tensor-core-census): 0.9 m16n8k128 MMAs a clock and multiprocessor, 115 distances a clock,
// against 16 population counts a clock (8 distances of a 9x7 window) for the scalar formula.
//
// One warp computes a chunk: 16 consecutive left pixels x0 + i of a row against kCandidates
// consecutive candidates k0 + c. Their right pixels xr = x0 + i - base - k0 - c span
// kCandidates + 15 columns; column n = 15 - i + c counts down from the top one,
// top = x0 + 15 - base - k0. The MMAs run over blocks of 8 columns; each lane writes its four
// distances, as cost bytes, into the warp's stage (row i, column n), and the warp then reads each
// row back in candidate order and stores it.
#include <cstdint>

namespace sv::cuda {

constexpr int kTensorChunkRows = 16;  // left pixels of a chunk

// The column blocks and the warp's stage of a chunk of kCandidates.
template <int kCandidates>
struct TensorChunkShape {
  static constexpr int kBlocks = (kCandidates + kTensorChunkRows - 1 + 7) / 8;
  static constexpr int kPitch = 8 * kBlocks;  // stage bytes a row
  static constexpr int kStageBytes = kTensorChunkRows * kPitch;
};

// Word `half` (0 low, 1 high) of a census code's 64-bit word.
__device__ __forceinline__ uint32_t code_word_half(uint64_t word, int half) {
  return static_cast<uint32_t>(word >> (32 * half));
}

// d = c + popc(a & b) over 256 bits, for the 16 x 8 block in the m16n8k256 fragment layout: lane
// (g = lane / 4, t = lane % 4) holds word t of rows g (a0) and g + 8 (a1) of A's first 128 bits and
// of its second (a2, a3), word t of column g of B's first (b0) and second (b1) 128 bits, and the
// sums of rows g (d0, d1) and g + 8 (d2, d3) with columns 2t and 2t + 1.
__device__ __forceinline__ void mma_and_popc(uint32_t (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                             uint32_t b1, uint32_t c) {
#if __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%10,%10,%10,%10};"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "r"(c));
#else
  __trap();  // callers check the architecture first
#endif
}

// Computes one chunk into the warp's stage (row i, column n at i * kPitch + n).
// - right_words: the staged right codes as 32-bit words, word t of slot s at
//   ((t / 2) * slots + s) * 2 + t % 2 (only the first kWords 64-bit words of a code are staged);
// - top_slot: the slot of column 0 (the top right pixel); columns whose slot would fall below 0
//   belong only to padding candidates and read slot 0 instead;
// - left: word t of the codes of pixels x0 + g and x0 + g + 8 (0 beyond the staged words);
// - window: word t of W; start: the accumulator's first value; to_cost turns a final accumulator
//   into a cost (its low byte).
template <int kWords, int kCandidates, typename ToCost>
__device__ __forceinline__ void tensor_chunk_costs(const uint32_t* right_words, int slots, int top_slot,
                                                   const uint32_t (&left)[2], uint32_t window,
                                                   uint32_t start, const ToCost& to_cost,
                                                   uint8_t* stage, int lane) {
  using Shape = TensorChunkShape<kCandidates>;
  const int g = lane / 4, t = lane % 4;
  const uint32_t a[4] = {left[0], left[1], ~left[0] & window, ~left[1] & window};
  // Lanes whose word lies beyond the staged ones read word 0 and drop it (no divergent load).
  const uint32_t staged = t / 2 < kWords ? ~0u : 0u;
  const uint32_t* words = right_words + (t / 2 < kWords ? t / 2 : 0) * slots * 2 + t % 2;
  uint8_t* row_g = stage + g * Shape::kPitch + 2 * t;
#pragma unroll
  for (int j = 0; j < Shape::kBlocks; ++j) {
    const uint32_t right = words[max(top_slot - 8 * j - g, 0) * 2] & staged;
    uint32_t d[4];
    mma_and_popc(d, a, ~right & window, right, start);
    *reinterpret_cast<uint16_t*>(row_g + 8 * j) =
        static_cast<uint16_t>(__byte_perm(to_cost(d[0]), to_cost(d[1]), 0x0040));
    *reinterpret_cast<uint16_t*>(row_g + 8 * Shape::kPitch + 8 * j) =
        static_cast<uint16_t>(__byte_perm(to_cost(d[2]), to_cost(d[3]), 0x0040));
  }
  __syncwarp();
}

// Sixteen cost bytes of row i of the stage, candidates c .. c + 15 (the run from column 15 - i + c,
// unaligned: five words shifted into place).
template <int kCandidates>
__device__ __forceinline__ uint4 tensor_stage_run(const uint8_t* stage, int i, int c) {
  const int first = i * TensorChunkShape<kCandidates>::kPitch + 15 - i + c;
  const uint32_t* run = reinterpret_cast<const uint32_t*>(stage) + first / 4;
  const int shift = 8 * (first % 4);
  uint32_t w[5];
#pragma unroll
  for (int k = 0; k < 5; ++k) w[k] = run[k];
  return make_uint4(__funnelshift_r(w[0], w[1], shift), __funnelshift_r(w[1], w[2], shift),
                    __funnelshift_r(w[2], w[3], shift), __funnelshift_r(w[3], w[4], shift));
}

}  // namespace sv::cuda
