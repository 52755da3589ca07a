// Normalized Hamming cost volume of census codes on the GPU; reproduces census_cost.cpp bit for
// bit (cost = (h * 64 + v / 2) / v over the bits valid in both codes, 64 when v == 0 or when the
// right pixel lies outside the image).
#include <algorithm>
#include <string>

#include "cuda/census_cost_tensor.cuh"
#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/stages.h"
#include "cuda/tuning.h"
#include "src/core/census_cost.h"
#include "src/core/error.h"
#include "src/core/stereo_params.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ int census_cost_device(const CensusCode& l, const CensusCode& r) {
  const uint64_t both0 = l.valid[0] & r.valid[0];
  const uint64_t both1 = l.valid[1] & r.valid[1];
  const int v = __popcll(both0) + __popcll(both1);
  const int h = __popcll((l.bits[0] ^ r.bits[0]) & both0) + __popcll((l.bits[1] ^ r.bits[1]) & both1);
  if (v == 0) return kMaxMatchCost;
  return (h * kMaxMatchCost + v / 2) / v;
}

// Designed around memory bandwidth: one thread per (pixel, candidate) of a row, so consecutive
// threads write consecutive cost bytes; the codes come through L1 (a left code is shared by
// `count` neighbouring threads, right codes by overlapping candidates of neighbouring pixels).
__global__ void census_cost_volume_kernel(const CensusCode* __restrict__ left,
                                          const CensusCode* __restrict__ right, int width,
                                          int uniform_base, const int16_t* __restrict__ per_pixel_base,
                                          int count, int stride, uint8_t* __restrict__ costs) {
  const int y = blockIdx.y;
  const int i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= width * count) return;
  const int x = i / count;
  const int k = i - x * count;
  const size_t pixel = static_cast<size_t>(y) * width + x;
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  const int xr = x - (base + k);
  int cost = kMaxMatchCost;
  if (xr >= 0 && xr < width) {
    cost = census_cost_device(left[pixel], right[static_cast<size_t>(y) * width + xr]);
  }
  costs[pixel * stride + k] = static_cast<uint8_t>(cost);
}

// The padded volume of a uniform range, tiled. A block owns a tile of pixels of one row and
// stages every right code they can match in shared memory; each code is read from global memory
// once per tile instead of once per candidate.
//
// Designed around the 32-bit population count (16 per clock per SM on sm_75..sm_90, a quarter
// of the integer rate): in the common case, where the left code and every right code of a tile
// are complete (all window bits valid), v == window_bits and the cost needs only
// h = popc(left.bits ^ right.bits), one POPC per 32-bit half the window uses (2 for 9x7), no
// valid word is read, and the division is one multiply (CompleteCostScale). Everything else
// (image borders, missing pixels, incomplete codes) takes the general formula, per 4-candidate
// word; right pixels outside the image are staged as all-invalid codes, so the general formula
// gives them kMaxMatchCost, and words wholly outside are stored as kMaxMatchCost directly.
//
// A warp's group of four pixels is "interior" when their left codes and their whole span of
// right codes are complete: one loop with no check at all (about 8 SASS instructions per cost
// for 9x7). Otherwise each word checks whether its four right pixels lie in the tile's complete
// stretch [complete_lo, complete_hi] (away from the image sides, where the census window is cut)
// and its left code is complete, and takes the fast or the general formula accordingly.
//
// Thread mapping: warp w owns the groups of four pixels g = w, w + 8, ... of the tile, one after
// the other; in group g, lane (q = lane / 8, r = lane % 8) computes candidates k = 32m + 4r .. +3
// of pixel 4g + q for every 32-candidate chunk m and stores them as one 32-bit word, so each warp
// store fills four whole 32-byte sectors. The word's right codes are four neighbours in the
// staging (span indices s .. s + 3, s = p + count - 4 - k), read as two 16-byte pairs; lanes
// r >= 4 read their pairs in the other order so that the eight lanes of a pixel cover all 32
// banks (no bank conflict).
//
// Wide frames take wide tiles: the staging (tile + count - 1 codes) and the barrier are paid once
// for several groups a warp. Tiles of 32 pixels (a group a warp) spent about two thirds of their
// instructions there (H200, 1920x1080 D128: 378 instructions a warp, 0.256 ms against 0.216 with
// 128-pixel tiles). Each width takes the tile that measured best for it (cuda/tuning.h): under
// 1024 columns 32 pixels, whose 4x more blocks fill the GPU better; from 2048 columns 256 (at
// 1920x1080 and 1280x720, 256 lost to 128).
//
// The widest tiles, and the wide ones with up to 64 candidates (sm_80 and later), compute their
// complete codes on the tensor cores instead (census_cost_tensor.cuh, chunk_costs below): no
// population count at all, in chunks of 16 pixels by up to 128 candidates; a chunk with an
// incomplete code, or the part of a chunk whose right pixels leave the complete stretch, takes the
// scalar formulas word by word. Elsewhere that measured slower (launch_cost_tiles).
constexpr int kTileThreads = 256;
// Staged slots before span index 0: the last real word of a pixel may read codes down to -3
// (padding candidates, masked afterwards).
constexpr int kLead = 4;
constexpr uint32_t kMaxCostWord = 0x01010101u * kMaxMatchCost;
// The left codes' completeness flags of a tile (a byte a pixel), rounded up to keep the warps'
// stages after them 16-byte aligned.
template <int kTilePixels>
constexpr int kTensorLeftFlagBytes = (kTilePixels + 15) / 16 * 16;

// Slots per staged array: span codes, kLead before, one more for the shifted copy; even so
// every array starts 16-byte aligned.
__host__ __device__ inline int staged_slots(int tile_pixels, int count) {
  return (tile_pixels + count - 1 + kLead + 2) & ~1;
}

// The complete-code cost (64 h + wb / 2) / wb of a Hamming distance h <= wb, in as few issue
// slots as the window allows: with one 32-bit half (wb <= 32) a multiply-high by
// magic = ceil(2^32 / wb); with more halves (32 < wb <= 128) one IADD3 that sums the half counts
// into the float 2^23 + h and one FFMA rounding toward zero, z = 2^23 + floor(h * scale + 1/2),
// whose low byte is the cost (scale slightly above 64 / wb; census_cost_scale proves it).
struct CompleteCostScale {
  uint32_t start;     // the float bits of 2^23 (a kernel argument, so that the sum stays one IADD3)
  uint32_t rounding;  // wb / 2
  uint32_t magic;     // ceil(2^32 / wb)
  float scale;        // 64 / wb + 1 / (4 wb^2), rounded to float
  float offset;       // 2^23 + 1/2 - 2^23 * scale, exact in float
};

// The cost of a complete code pair from its Hamming distance, summed on top of `start` (for more
// than one half) as complete_costs4 and the tensor-core chunks both sum it; the cost is the low byte.
template <int kHalves>
struct CompleteCost {
  CompleteCostScale scale;
  __device__ __forceinline__ uint32_t operator()(uint32_t sum) const {
    if (kHalves == 1) return __umulhi(sum * kMaxMatchCost + scale.rounding, scale.magic);
    return __float_as_uint(__fmaf_rz(__uint_as_float(sum), scale.scale, scale.offset));
  }
};

// Costs of candidates k .. k + 3 whose codes are all complete. `first` / `second` point at the
// lane's two 16-byte pairs in each code word's staging (codes s, s + 1 and s + 2, s + 3, in the
// lane's order), `order` puts the four cost bytes in candidate order.
template <int kHalves, int kWords>
__device__ __forceinline__ uint32_t complete_costs4(const ulonglong2* const (&first)[kWords],
                                                    const ulonglong2* const (&second)[kWords],
                                                    const uint32_t (&left)[kHalves],
                                                    const CompleteCostScale& scale, uint32_t order) {
  // Sum of the half counts, on top of the float bits of 2^23 (none for one half).
  uint32_t sum[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) sum[c] = kHalves == 1 ? 0u : scale.start;
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    const ulonglong2 a = *first[w];
    const ulonglong2 b = *second[w];
    const uint64_t code[4] = {a.x, a.y, b.x, b.y};
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      sum[c] += __popc(left[2 * w] ^ static_cast<uint32_t>(code[c]));
      // Higher halves beyond the window are 0 in every code: skip them.
      if (2 * w + 1 < kHalves) sum[c] += __popc(left[2 * w + 1] ^ static_cast<uint32_t>(code[c] >> 32));
    }
  }
  uint32_t cost[4];  // the cost in the low byte
#pragma unroll
  for (int c = 0; c < 4; ++c) cost[c] = CompleteCost<kHalves>{scale}(sum[c]);
  const uint32_t first_two = __byte_perm(cost[0], cost[1], 0x0040);
  const uint32_t second_two = __byte_perm(cost[2], cost[3], 0x0040);
  return __byte_perm(first_two, second_two, order);
}

// kMaxMatchCost in the bytes of candidates >= count (the padding of the last real word).
__device__ __forceinline__ uint32_t mask_padding(uint32_t word, int real) {
  if (real >= 4) return word;
  const uint32_t keep = (1u << (4 * real)) - 1;  // selector nibbles of the real bytes
  return __byte_perm(word, kMaxCostWord, (0x3210u & keep) | (0x4444u & ~keep));
}

// census_cost.cpp's formula over the bits valid in both codes, for candidates k .. k + 3 (codes
// s + 3 .. s): borders, missing pixels, out-of-image right pixels (staged as all-invalid codes,
// so v == 0 gives kMaxMatchCost) and padding.
template <int kWords>
__device__ uint32_t general_costs4(const uint64_t* const (&bits)[kWords],
                                   const uint64_t* const (&valid)[kWords], int s, int k, int count,
                                   const uint64_t (&left_bits)[kWords],
                                   const uint64_t (&left_valid)[kWords], int window_bits,
                                   uint32_t magic) {
  uint32_t word = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    int cost = kMaxMatchCost;
    if (k + j < count) {
      const int slot = kLead + s + 3 - j;
      int v = 0, h = 0;
#pragma unroll
      for (int w = 0; w < kWords; ++w) {
        const uint64_t both = left_valid[w] & valid[w][slot];
        v += __popcll(both);
        h += __popcll((left_bits[w] ^ bits[w][slot]) & both);
      }
      if (v == window_bits) {
        cost = static_cast<int>(__umulhi(static_cast<uint32_t>(h * kMaxMatchCost + window_bits / 2), magic));
      } else if (v > 0) {
        cost = (h * kMaxMatchCost + v / 2) / v;
      }
    }
    word |= static_cast<uint32_t>(cost) << (8 * j);
  }
  return word;
}

// Moves a lane from its word of chunk m to its word of chunk m + 1: 32 codes lower, 32 cost
// bytes further.
template <int kWords>
__device__ __forceinline__ void next_chunk(const ulonglong2* (&first)[kWords],
                                           const ulonglong2* (&second)[kWords], uint32_t*& out) {
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    first[w] -= 16;
    second[w] -= 16;
  }
  out += 8;
}

struct TileArgs {
  const CensusCode* left;
  const CensusCode* right;
  int width;
  int base;
  int count;
  int words_per_pixel;  // stride / 4
  int window_bits;
  int border;           // codes closer than this to the left or right side are never complete
  uint64_t complete[2]; // valid words of a complete code
  CompleteCostScale scale;
  uint8_t* costs;
};

// The costs of one pixel's group (the lane's pixel p of the tile, candidates 4r + 32m) from the
// staging: the fast formula throughout for an interior group, else word by word.
template <int kHalves>
__device__ __forceinline__ void compute_group_costs(
    const TileArgs& args, const uint64_t* tile_words, int slots, int p, int r, int y, int x,
    int count, int chunks, bool interior, bool left_complete,
    const uint64_t (&left_bits)[(kHalves + 1) / 2], const uint64_t (&left_valid)[(kHalves + 1) / 2],
    int complete_lo, int complete_hi, uint32_t order) {
  constexpr int kWords = (kHalves + 1) / 2;
  const uint64_t* bits_even[kWords];
  const uint64_t* valid_words[kWords];
  // The lane's pairs for chunk 0; chunk m lies 32 codes (16 pairs) lower.
  const ulonglong2* first_pair[kWords];
  const ulonglong2* second_pair[kWords];
  const int s0 = p + count - 4 - 4 * r;  // span index of the first code of chunk 0's word
  const int odd = s0 & 1;
  const int swap = (r >> 2) & 1;
  const int pair0 = (kLead + odd + s0) / 2;
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    bits_even[w] = tile_words + w * slots;
    valid_words[w] = tile_words + (2 * kWords + w) * slots;
    const ulonglong2* pairs = reinterpret_cast<const ulonglong2*>(tile_words + (odd ? kWords + w : w) * slots);
    first_pair[w] = pairs + pair0 + swap;
    second_pair[w] = pairs + pair0 + 1 - swap;
  }
  uint32_t left_halves[kHalves];
#pragma unroll
  for (int j = 0; j < kHalves; ++j) left_halves[j] = static_cast<uint32_t>(left_bits[j / 2] >> (32 * (j % 2)));

  uint32_t* out = reinterpret_cast<uint32_t*>(args.costs) +
                  (static_cast<size_t>(y) * args.width + x) * args.words_per_pixel + r;
  // Chunk m moves every code 32 slots (16 pairs) down.
  if (interior) {
    int m = 0;
#pragma unroll 4
    for (; m < count / 32; ++m) {
      *out = complete_costs4<kHalves>(first_pair, second_pair, left_halves, args.scale, order);
      next_chunk(first_pair, second_pair, out);
    }
    if (m < chunks && count % 32 != 0) {
      const int k = 32 * m + 4 * r;
      *out = k < count ? mask_padding(complete_costs4<kHalves>(first_pair, second_pair, left_halves, args.scale, order),
                                      count - k)
                       : kMaxCostWord;
      next_chunk(first_pair, second_pair, out);
      ++m;
    }
    for (; m < chunks; ++m, out += 8) *out = kMaxCostWord;
    return;
  }

  const int top0 = x - args.base - 4 * r;  // right pixel of candidate k of chunk 0's word
  for (int m = 0; m < chunks; ++m) {
    const int k = 32 * m + 4 * r;
    const int top = top0 - 32 * m;  // candidates k .. k + 3 match right pixels top .. top - 3
    uint32_t word;
    if (k >= count || top < 0 || top - 3 >= args.width) {
      word = kMaxCostWord;
    } else if (left_complete && top - 3 >= complete_lo && top <= complete_hi) {
      word = mask_padding(complete_costs4<kHalves>(first_pair, second_pair, left_halves, args.scale, order),
                          count - k);
    } else {
      word = general_costs4<kWords>(bits_even, valid_words, s0 - 32 * m, k, count, left_bits,
                                    left_valid, args.window_bits, args.scale.magic);
    }
    *out = word;
    next_chunk(first_pair, second_pair, out);
  }
}

// The costs of candidates k .. k + 3 of complete codes, one at a time from the staged codes (the
// chunks' border words; slot of candidate k + j: kLead + s + 3 - j, as for general_costs4).
template <int kHalves>
__device__ __forceinline__ uint32_t complete_costs_scalar4(const uint64_t* bits_even, int slots, int s,
                                                           const uint64_t (&left_bits)[(kHalves + 1) / 2],
                                                           const CompleteCostScale& scale) {
  uint32_t word = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    uint32_t sum = kHalves == 1 ? 0u : scale.start;
#pragma unroll
    for (int w = 0; w < (kHalves + 1) / 2; ++w) sum += __popcll(left_bits[w] ^ bits_even[w * slots + kLead + s + 3 - j]);
    word |= (CompleteCost<kHalves>{scale}(sum) & 0xFFu) << (8 * j);
  }
  return word;
}

// One chunk on sm_80+: the 16 pixels from x (x0 the tile's first) against kCandidates candidates
// from k0, on the tensor cores (census_cost_tensor.cuh) where the 16 left codes and every right
// code of a real candidate are complete; otherwise word by word, by the complete-code formula
// where its codes are complete and by the general one elsewhere. Padding candidates get
// kMaxMatchCost. The warp stores whole rows at a time: in pass q, lane l stores 16 bytes, piece
// l % P of row l / P + q * 32 / P (P = kCandidates / 16 pieces a row), so every store fills whole
// 32-byte sectors.
template <int kHalves, int kTilePixels, int kCandidates>
__device__ __forceinline__ void chunk_costs(const TileArgs& args, const uint64_t* tile_words, int slots,
                                            const uint64_t* left_words, const uint8_t* left_flags,
                                            uint8_t* stage, int x0, int x, int k0, int y, int first_xr,
                                            int complete_lo, int complete_hi, int lane) {
  constexpr int kWords = (kHalves + 1) / 2;
  constexpr int kPieces = kCandidates / 16;          // 16-byte pieces of a row
  constexpr int kRowsAPass = 32 / kPieces;
  constexpr int kPasses = kTensorChunkRows / kRowsAPass;
  const int width = args.width, count = args.count;
  const int c = 16 * (lane % kPieces);  // this lane's piece: candidates k0 + c .. + 15
  const size_t stride = 4 * static_cast<size_t>(args.words_per_pixel);
  uint8_t* const row0 = args.costs + (static_cast<size_t>(y) * width + x) * stride + k0 + c;
  const auto row_of = [&](int q) { return lane / kPieces + kRowsAPass * q; };
  const auto pad = [](uint32_t word, int real_in_word) {
    return real_in_word <= 0 ? kMaxCostWord : mask_padding(word, real_in_word);
  };
  const int real = count - (k0 + c);  // real candidates from this lane's first
  if (k0 >= count) {
#pragma unroll
    for (int q = 0; q < kPasses; ++q) {
      const int i = row_of(q);
      if (x + i < width) {
        *reinterpret_cast<uint4*>(row0 + i * stride) = make_uint4(kMaxCostWord, kMaxCostWord, kMaxCostWord, kMaxCostWord);
      }
    }
    return;
  }
  // The tensor-core fragments: word t of the staged left codes of pixels x + g and x + g + 8.
  const int g = lane / 4, t = lane % 4;
  // (Selected, not indexed: a run-time index into the kernel's argument copies it to local memory.)
  const uint32_t window = code_word_half(t / 2 == 0 ? args.complete[0] : args.complete[1], t % 2);
  const uint32_t staged = t / 2 < kWords ? ~0u : 0u;
  uint32_t left[2];
  bool complete = true;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int p = x - x0 + g + 8 * r;
    left[r] = code_word_half(left_words[(t / 2 < kWords ? t / 2 : 0) * kTilePixels + p], t % 2) & staged;
    complete &= left_flags[p] != 0;
  }
  const int top = x + kTensorChunkRows - 1 - args.base - k0;  // row 15, candidate k0
  const int lowest = x - args.base - min(k0 + kCandidates - 1, count - 1);  // row 0, the last real one
  const bool all_left_complete = __all_sync(0xffffffffu, complete);
  if (all_left_complete && lowest >= complete_lo && top <= complete_hi) {
    tensor_chunk_costs<kWords, kCandidates>(reinterpret_cast<const uint32_t*>(tile_words), slots,
                                            kLead + top - first_xr, left, window,
                                            kHalves == 1 ? 0u : args.scale.start,
                                            CompleteCost<kHalves>{args.scale}, stage, lane);
#pragma unroll
    for (int q = 0; q < kPasses; ++q) {
      const int i = row_of(q);  // complete rows are all inside the image
      const uint4 run = tensor_stage_run<kCandidates>(stage, i, c);
      *reinterpret_cast<uint4*>(row0 + i * stride) =
          make_uint4(pad(run.x, real), pad(run.y, real - 4), pad(run.z, real - 8), pad(run.w, real - 12));
    }
    __syncwarp();  // the stage is free for the next chunk
    return;
  }
  if constexpr (kCandidates > 32) {
    // Complete left codes whose wide chunk reaches past the complete stretch: its chunks of 32
    // decide one by one, so only those that reach past it take the scalar formulas.
    if (all_left_complete) {
#pragma unroll 1
      for (int sub = 0; sub < kCandidates / 32; ++sub) {
        chunk_costs<kHalves, kTilePixels, 32>(args, tile_words, slots, left_words, left_flags, stage, x0, x,
                                              k0 + 32 * sub, y, first_xr, complete_lo, complete_hi, lane);
      }
      return;
    }
  }
  const uint64_t* bits_even[kWords];
  const uint64_t* valid_words[kWords];
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    bits_even[w] = tile_words + w * slots;
    valid_words[w] = tile_words + (2 * kWords + w) * slots;
  }
#pragma unroll 1
  for (int q = 0; q < kPasses; ++q) {
    const int i = row_of(q);
    if (x + i >= width) continue;
    uint64_t left_bits[kWords], left_valid[kWords];
    const CensusCode& code = args.left[static_cast<size_t>(y) * width + x + i];
#pragma unroll
    for (int w = 0; w < kWords; ++w) {
      left_bits[w] = code.bits[w];
      left_valid[w] = code.valid[w];
    }
    const bool left_is_complete = left_flags[x - x0 + i] != 0;
    uint32_t words[4];
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int k = k0 + c + 4 * v;
      const int top_k = x + i - args.base - k;  // right pixel of candidate k; k + 3 matches top_k - 3
      const int s = x + i - x0 + count - 4 - k;
      uint32_t word;
      if (k >= count || top_k < 0 || top_k - 3 >= width) {
        word = kMaxCostWord;
      } else if (left_is_complete && top_k - 3 >= complete_lo && top_k <= complete_hi) {
        word = pad(complete_costs_scalar4<kHalves>(tile_words, slots, s, left_bits, args.scale), count - k);
      } else {
        word = general_costs4<kWords>(bits_even, valid_words, s, k, count, left_bits, left_valid,
                                      args.window_bits, args.scale.magic);
      }
      words[v] = word;
    }
    *reinterpret_cast<uint4*>(row0 + i * stride) = make_uint4(words[0], words[1], words[2], words[3]);
  }
}

// Whether the device code being compiled has the binary MMA with AND (sm_80 and later).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr bool kBinaryMma = false;
#else
constexpr bool kBinaryMma = true;
#endif

// One tile: kCandidates > 0 computes chunks of that many candidates on the tensor cores where
// the GPU has them; 0 takes the scalar popcount path.
template <int kHalves, int kTilePixels, int kCandidates>
__device__ __forceinline__ void cost_tile(const TileArgs& args) {
  constexpr bool kTensor = kCandidates > 0 && kBinaryMma;
  constexpr int kWords = (kHalves + 1) / 2;
  // Per code word w: bits at slot kLead + i ("even": pairs starting at an even i are 16-byte
  // aligned), the same bits one slot later ("odd": pairs starting at an odd i aligned), valid.
  extern __shared__ __align__(16) uint64_t tile_words[];
  const int width = args.width, count = args.count;
  const int slots = staged_slots(kTilePixels, count);
  const int y = blockIdx.y;
  const int x0 = blockIdx.x * kTilePixels;
  const int span = kTilePixels + count - 1;           // right pixels first_xr ...
  const int first_xr = x0 - args.base - (count - 1);  // ... up to x0 + kTilePixels - 1 - base
  const int last_xr = first_xr + span - 1;
  const int zone_lo = args.border, zone_hi = width - 1 - args.border;  // where codes can be complete

  // Stage the span; out-of-image and out-of-span slots hold all-invalid zero codes.
  const CensusCode* right_row = args.right + static_cast<size_t>(y) * width;
  bool right_complete = true;
  for (int slot = threadIdx.x; slot < slots; slot += kTileThreads) {
    const int i = slot - kLead;
    const int xr = first_xr + i;
    uint64_t bits[kWords] = {}, valid[kWords] = {};
    if (i >= 0 && i < span && xr >= 0 && xr < width) {
      const CensusCode& r = right_row[xr];
#pragma unroll
      for (int w = 0; w < kWords; ++w) {
        bits[w] = r.bits[w];
        valid[w] = r.valid[w];
      }
      if (xr >= zone_lo && xr <= zone_hi) {
#pragma unroll
        for (int w = 0; w < kWords; ++w) right_complete &= valid[w] == args.complete[w];
      }
    }
#pragma unroll
    for (int w = 0; w < kWords; ++w) {
      tile_words[w * slots + slot] = bits[w];
      if (slot + 1 < slots) tile_words[(kWords + w) * slots + slot + 1] = bits[w];
      if (slot == 0) tile_words[(kWords + w) * slots] = 0;
      tile_words[(2 * kWords + w) * slots + slot] = valid[w];
    }
  }

  // The tensor cores' tile also stages its left codes (their bits, and whether each is complete),
  // loaded by the whole block at once rather than by each chunk's warp before its MMAs.
  uint64_t* left_words = tile_words + 3 * kWords * slots;
  uint8_t* left_flags = reinterpret_cast<uint8_t*>(left_words + kWords * kTilePixels);
  for (int p = threadIdx.x; kTensor && p < kTilePixels; p += kTileThreads) {
    const int x = x0 + p;
    bool complete = false;
    uint64_t bits[kWords] = {};
    if (x < width) {
      const CensusCode& l = args.left[static_cast<size_t>(y) * width + x];
      complete = true;
#pragma unroll
      for (int w = 0; w < kWords; ++w) {
        bits[w] = l.bits[w];
        complete &= l.valid[w] == args.complete[w];
      }
    }
#pragma unroll
    for (int w = 0; w < kWords; ++w) left_words[w * kTilePixels + p] = bits[w];
    left_flags[p] = complete;
  }

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // The barrier publishes the staging and makes the right span's check tile-wide.
  const bool tile_right_complete = __syncthreads_and(right_complete);
  // Right pixels of one word for which the fast path holds: inside [complete_lo, complete_hi].
  const int complete_lo = tile_right_complete ? max(first_xr, zone_lo) : 1;
  const int complete_hi = tile_right_complete ? min(last_xr, zone_hi) : 0;

  if constexpr (kTensor) {
    // Chunks of 16 pixels and kCandidates candidates, spread over the warps; each warp has its own
    // stage after the staged codes.
    uint8_t* stage = reinterpret_cast<uint8_t*>(left_words + kWords * kTilePixels) +
                     kTensorLeftFlagBytes<kTilePixels> + warp * TensorChunkShape<kCandidates>::kStageBytes;
    const int tensor_chunks = args.words_per_pixel * 4 / kCandidates;
    const int items = kTilePixels / kTensorChunkRows * tensor_chunks;
#pragma unroll 1
    for (int item = warp; item < items; item += kTileThreads / 32) {
      const int group = item / tensor_chunks, m = item - group * tensor_chunks;
      const int x = x0 + kTensorChunkRows * group;
      if (x >= width) continue;  // whole warp: past the side
      chunk_costs<kHalves, kTilePixels, kCandidates>(args, tile_words, slots, left_words, left_flags, stage,
                                                     x0, x, kCandidates * m, y, first_xr, complete_lo,
                                                     complete_hi, lane);
    }
  } else {
    const int chunks = args.words_per_pixel / 8;
    const int q = lane / 8, r = lane % 8;
    const uint32_t order = ((r >> 2) & 1) ? 0x4501u : 0x0145u;
#pragma unroll 1
    for (int group = warp; group < kTilePixels / 4; group += kTileThreads / 32) {
      const int p = 4 * group + q;
      const int x = x0 + p;
      if (x0 + 4 * group >= width) break;  // whole warp: the tile's last groups past the side
      uint64_t left_bits[kWords] = {}, left_valid[kWords] = {};
      bool left_complete = false;
      if (x < width) {
        const CensusCode& l = args.left[static_cast<size_t>(y) * width + x];
        left_complete = true;
#pragma unroll
        for (int w = 0; w < kWords; ++w) {
          left_bits[w] = l.bits[w];
          left_valid[w] = l.valid[w];
          left_complete &= left_valid[w] == args.complete[w];
        }
      }
      // The group's own span of right pixels: x - base - (count - 1) .. x - base for its 4 pixels.
      const int group_first_xr = x0 + 4 * group - args.base - (count - 1);
      const int group_last_xr = x0 + 4 * group + 3 - args.base;
      const bool interior = tile_right_complete && __all_sync(0xffffffffu, left_complete || x >= width) &&
                            group_first_xr >= zone_lo && group_last_xr <= zone_hi;
      if (x >= width) continue;
      compute_group_costs<kHalves>(args, tile_words, slots, p, r, y, x, count, chunks, interior,
                                   left_complete, left_bits, left_valid, complete_lo, complete_hi, order);
    }
  }
}

template <int kHalves, int kTilePixels>
__global__ void __launch_bounds__(kTileThreads) census_cost_tile_kernel(const TileArgs args) {
  cost_tile<kHalves, kTilePixels, 0>(args);
}

// Held to 48 registers, 5 blocks an SM: faster than 64 registers and than no bound, despite 16-32
// bytes of spills in the 128-candidate chunks (cuda/tuning.h).
template <int kHalves, int kTilePixels, int kCandidates>
__global__ void __launch_bounds__(kTileThreads, kBinaryMma ? kTensorTileBlocksPerSm : 1)
    census_cost_tensor_tile_kernel(const TileArgs args) {
  cost_tile<kHalves, kTilePixels, kCandidates>(args);
}

// Half-width of the census window with `window_bits` comparison bits: codes closer to a side
// are incomplete by construction. An unknown window only costs speed (border tiles take the
// general path), never exactness: completeness is checked code by code.
int census_border(int window_bits) {
  for (const CensusWindow window : {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                                    CensusWindow::W9x9, CensusWindow::W11x11}) {
    if (census_window_width(window) * census_window_height(window) - 1 == window_bits) {
      return census_window_width(window) / 2;
    }
  }
  return 0;
}

// The constants of CompleteCostScale. Exactness of the FFMA form, for 32 < wb <= 128 and every
// h in 0..wb: x = 2^23 + h is exact; x * scale + offset = 2^23 + h * scale + 1/2 lies in
// [2^23, 2^24), where float spacing is 1, so rounding toward zero gives 2^23 + floor(h * scale
// + 1/2). With scale = 64 / wb + e, 0 < e h < 1 / (2 wb) (e about 1 / (4 wb^2) plus the float
// rounding of scale), and the exact cost q = (64 h + wb / 2) / wb = 64 h / wb + 1/2 (even wb) or
// 64 h / wb + 1/2 - 1 / (2 wb) (odd wb) being a multiple of 1 / wb, h * scale + 1/2 stays in
// [floor(q), floor(q) + 1). scale lies in (1/2, 2], so 2^23 * scale is a multiple of 1/2 and
// offset, in (-2^23, 2^23), is a multiple of 1/2: exact in float. Checked for every (wb, h) by
// the census cost tests; the magic multiply-high is exact for 64 h + wb / 2 < 2^32 / wb.
CompleteCostScale census_cost_scale(int window_bits) {
  CompleteCostScale s{};
  s.start = 0x4B000000u;
  s.rounding = static_cast<uint32_t>(window_bits / 2);
  s.magic = static_cast<uint32_t>(((1ull << 32) + window_bits - 1) / window_bits);
  const double wb = window_bits;
  s.scale = static_cast<float>(64.0 / wb + 0.25 / wb / wb);
  const double offset = 8388608.5 - 8388608.0 * static_cast<double>(s.scale);
  s.offset = static_cast<float>(offset);
  if (window_bits > 32 && static_cast<double>(s.offset) != offset) {
    throw InputError("census cost: no exact float form of the cost for " + std::to_string(window_bits) + " bits");
  }
  return s;
}

template <int kHalves, int kTilePixels, int kCandidates>
void launch_cost_tiles(const TileArgs& args, int height, cudaStream_t stream) {
  constexpr int kWords = (kHalves + 1) / 2;
  const auto kernel = [] {
    if constexpr (kCandidates > 0) return census_cost_tensor_tile_kernel<kHalves, kTilePixels, kCandidates>;
    else return census_cost_tile_kernel<kHalves, kTilePixels>;
  }();
  // The staged codes, then for the tensor cores the left codes, their flags and the warps' stages.
  size_t shared = sizeof(uint64_t) * 3 * kWords * staged_slots(kTilePixels, args.count);
  if constexpr (kCandidates > 0) {
    shared += sizeof(uint64_t) * kWords * kTilePixels + kTensorLeftFlagBytes<kTilePixels> +
              kTileThreads / 32 * TensorChunkShape<kCandidates>::kStageBytes;
  }
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(kernel, shared);
  const dim3 grid((args.width + kTilePixels - 1) / kTilePixels, height);
  kernel<<<grid, kTileThreads, shared, stream>>>(args);
  SV_CUDA_CHECK_LAUNCH();
}

// Where the tensor cores pay (sm_80 and later), measured on the H200 (cuda/tuning.h), cost stage:
// - the widest tiles (frames from 2048 columns), in the widest chunk the stride holds (a chunk of
//   128 candidates computes 144 columns for its 143, one of 32 48 for 47): 3840x2160 D64 / D128 /
//   D256 0.408 / 0.658 / 1.181 ms against 0.554 / 0.751 / 1.240 for the scalar kernel;
// - 128-pixel tiles (1024 to 2047 columns) with 33 to 64 candidates, in chunks of 64. With 128
//   candidates they measured equal (0.218 against 0.217), with 256 slower: their chunks of 128
//   reach past the left side of the image (9 of a row's 120 chunks at D128, 26 of 240 at D256)
//   and those parts take the scalar formulas;
// - never the 32-pixel tiles (under 1024 columns): two chunks a tile leave warps idle, and
//   640x480 D64 / D128 / D256 measured 14 to 42 % slower.
bool device_has_binary_mma() { return current_device().compute_major >= 8; }

template <int kHalves, int kTilePixels>
void launch_cost_tiles(const TileArgs& args, int height, cudaStream_t stream) {
  const int stride = 4 * args.words_per_pixel;
  if constexpr (kTilePixels == kNarrowTilePixels) {
    launch_cost_tiles<kHalves, kTilePixels, 0>(args, height, stream);
  } else if (!device_has_binary_mma()) {
    launch_cost_tiles<kHalves, kTilePixels, 0>(args, height, stream);
  } else if constexpr (kTilePixels == kWideTilePixels) {
    if (stride == kWideTileTensorStride) {
      launch_cost_tiles<kHalves, kTilePixels, kWideTileTensorStride>(args, height, stream);
    } else {
      launch_cost_tiles<kHalves, kTilePixels, 0>(args, height, stream);
    }
  } else if (stride % 128 == 0) {
    launch_cost_tiles<kHalves, kTilePixels, 128>(args, height, stream);
  } else if (stride % 64 == 0) {
    launch_cost_tiles<kHalves, kTilePixels, 64>(args, height, stream);
  } else {
    launch_cost_tiles<kHalves, kTilePixels, 32>(args, height, stream);
  }
}

template <int kHalves>
void launch_cost_tiles(const TileArgs& args, int height, cudaStream_t stream) {
  if (args.width >= kWidestTileMinWidth) {
    launch_cost_tiles<kHalves, kWidestTilePixels>(args, height, stream);
  } else if (args.width >= kWideTileMinWidth) {
    launch_cost_tiles<kHalves, kWideTilePixels>(args, height, stream);
  } else {
    launch_cost_tiles<kHalves, kNarrowTilePixels>(args, height, stream);
  }
}

}  // namespace

void census_cost_volume(const CensusCode* left, const CensusCode* right, int width, int height,
                        DeviceSearchRange range, uint8_t* costs, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  const dim3 grid((width * range.count + kThreads - 1) / kThreads, height);
  census_cost_volume_kernel<<<grid, kThreads, 0, stream>>>(left, right, width, range.uniform_base,
                                                           range.per_pixel_base, range.count, range.count, costs);
  SV_CUDA_CHECK_LAUNCH();
}

void census_cost_volume_strided(const CensusCode* left, const CensusCode* right, int width,
                                int height, int uniform_base, int count, int stride, int window_bits,
                                uint8_t* costs, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || count <= 0) return;
  if (stride % 32 != 0 || stride < count) {
    throw InputError("census cost: the candidate stride must be a multiple of 32 holding every candidate");
  }
  if (window_bits < 1 || window_bits > 128) {
    throw InputError("census cost: a census window has 1..128 comparison bits, got " +
                     std::to_string(window_bits));
  }
  TileArgs args{};
  args.left = left;
  args.right = right;
  args.width = width;
  args.base = uniform_base;
  args.count = count;
  args.words_per_pixel = stride / 4;
  args.window_bits = window_bits;
  args.border = census_border(window_bits);
  for (int w = 0; w < 2; ++w) {
    const int bits = std::clamp(window_bits - 64 * w, 0, 64);
    args.complete[w] = bits == 64 ? ~0ull : (1ull << bits) - 1;
  }
  args.scale = census_cost_scale(window_bits);
  args.costs = costs;
  if (window_bits <= 32) {
    launch_cost_tiles<1>(args, height, stream);
  } else if (window_bits <= 64) {
    launch_cost_tiles<2>(args, height, stream);
  } else if (window_bits <= 96) {
    launch_cost_tiles<3>(args, height, stream);
  } else {
    launch_cost_tiles<4>(args, height, stream);
  }
}

}  // namespace sv::cuda
