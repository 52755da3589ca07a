#pragma once

// The measured tuning rules of the CUDA kernels in one place: each constant is the value that
// measured best, with the GPU and the figure that decided it and its row of the performance
// ledger. The kernels' predicates combine them with their shapes (cells a lane: 2, 4 or 8 for up
// to 64, 128 or 256 candidates). A new value changes the generated code: measure it again.
namespace sv::cuda {

// --- SGM path walks (sgm_path_costs.cu) ---

// One walk a warp loads 2 steps ahead into 4 slots, several walks 1 ahead into 2; H100: 1-3.5 %
// faster at 64 candidates than as many slots as steps ahead (docs/performance.md, ledger:
// walk-prefetch).
constexpr int kSingleWalkPrefetch = 2;
constexpr int kSingleWalkSlots = 4;
constexpr int kWalksPrefetch = 1;
constexpr int kWalksSlots = 2;

// The last minimum as a 16-bit pair for adaptive walks and unpadded ones up to this many cells;
// H200: 1920x1080 D128 1.998 -> 1.925 ms, padded D96 8 % slower (docs/performance.md, ledger:
// min-pair).
constexpr int kMinPairMaxUnpaddedCells = 4;

// Walks of this many cells keep one cursor, as do padded row walks; H200: 1280x720 D256 1.531 ->
// 1.502 ms, clocked D128 5 % slower (docs/performance.md, ledger: one-cursor).
constexpr int kOneCursorCells = 8;

// Clocked walks up to this many cells with a constant P2 skip the crossing checks where none can
// come; H200: 1920x1080 D128 2.068 -> 1.987 ms, 1280x720 D256 2.6 % slower (docs/performance.md,
// ledger: unchecked-groups).
constexpr int kUncheckedGroupsMaxCells = 4;

// Clocked launches of this many cells, and padded ones, read the task kind from the launch; H200:
// unpadded 1920x1080 D128 0.3 % slower so (docs/performance.md, ledger: one-cursor).
constexpr int kUniformKindCells = 8;

// Row clock chunks and slack up to 128 candidates, then with 256 (twice the bytes a row); H100:
// 1920x1080 D128 2.563 ms against 2.625-2.635 with 32 / 2, D256 4.640-4.642 against 4.655 with
// 64 / 1 (docs/performance.md, ledger: clock-shape).
constexpr int kClockRows = 64;
constexpr int kClockSlack = 1;
constexpr int kClockRows256 = 32;
constexpr int kClockSlack256 = 2;

// Blocks an SM the clocked kernel is held to (its registers); H200: 7 for unpadded 128
// candidates, 1920x1080 D128 1.925 -> 1.911 ms (docs/performance.md, ledger: regs72).
constexpr int kClockedBlocksPerSm = 8;
constexpr int kClockedBlocksPerSm128Unpadded = 7;
constexpr int kClockedBlocksPerSm256 = 6;
constexpr int kClockedBlocksPerSmAdaptive = 5;

// kAuto clocks the walks from this many cells and where a sense has this many blocks an SM (2 with
// 256 candidates); H100: 64 candidates 1.94 ms clocked against 1.79 free, 640x480 0.62 against
// 0.48 (docs/performance.md, ledger: clocked-walks).
constexpr int kClockedMinCells = 4;
constexpr long kClockedMinSenseBlocksPerSm = 3;
constexpr long kClockedMinSenseBlocksPerSm256 = 2;

// --- Census costs (census_cost.cu) ---

// Tile pixels by frame width: 32, 128 from 1024 columns, 256 from 2048; H200: 640x480 D256 0.582
// ms against 0.595 with 128, 3840x2160 D128 0.749 against 0.773 (docs/performance.md, ledger:
// cost-tiles).
constexpr int kNarrowTilePixels = 32;
constexpr int kWideTilePixels = 128;
constexpr int kWidestTilePixels = 256;
constexpr int kWideTileMinWidth = 1024;
constexpr int kWidestTileMinWidth = 2048;

// The wide tiles take the tensor cores only at this candidate stride; H200: 1920x1080 D64 0.133
// ms against 0.158, D256 0.390 against 0.347 (docs/performance.md, ledger: tensor-core-census).
constexpr int kWideTileTensorStride = 64;
// Blocks an SM the tensor-core tiles are held to (48 registers); H200: 3840x2160 D128 0.665 ms
// against 0.680 with 64 registers (docs/performance.md, ledger: tensor-core-census).
constexpr int kTensorTileBlocksPerSm = 5;

// --- Fused selection (disparity_selection.cu) ---

// Path costs loaded a pixel ahead over this many directions, or at this many cells; H200: 8 paths
// 1920x1080 D128 0.542 -> 0.521 ms, 4 paths 1.377 -> 1.365 without (docs/performance.md, ledger:
// selection-load-ahead).
constexpr int kLoadAheadDirections = 8;
constexpr int kLoadAheadCells = 2;
// Not over 16-bit costs; H200: bm-sad 1920x1080 D128 0.961 ms either way (docs/performance.md,
// ledger: selection-load-ahead).
constexpr bool kCost16LoadAhead = false;

}  // namespace sv::cuda
