#pragma once

// The launch order of the free schedule's path blocks (sgm_path_costs.cu): block b of its 1-D grid
// walks the paths of the table's entry b. A block holds kFreePathsPerBlock paths of one direction,
// in the reference's path order (sgm_path_geometry.cuh).
//
// The order: the blocks with the longest paths first, and among blocks of equal length the order
// that lets directions share cost reads (both horizontal directions, then the three downward ones
// interleaved block by block, then the three upward ones likewise: their paths from the first row
// reach row n together, so a cost row fetched for one is still in L2 for the others). Longest
// first keeps the last wave of the launch from being a few long walks on an otherwise idle GPU:
// on the H200, 3840x2160 D128 8.11-8.13 -> 7.96 ms a frame, 1920x1080 D64 1.45-1.46 -> 1.39-1.40;
// 4 paths (whose order it keeps) and the clocked schedule within 1 % (docs/performance.md,
// ledger: longest-first).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/device_buffer.h"

namespace sv::cuda {

constexpr int kFreePathsPerBlock = 4;
// A table entry: direction << kPathBlockDirectionShift | block.
constexpr int kPathBlockDirectionShift = 24;

struct FreePathBlock {
  int direction;  // sgm_direction's index
  int block;      // paths block * kFreePathsPerBlock ... of that direction
  int longest;    // pixels of its longest path
};

// Every block of the free schedule for `paths` (4 or 8) directions, in launch order.
std::vector<FreePathBlock> free_path_blocks(int width, int height, int paths);

struct PathBlockTable {
  const uint32_t* entries;  // device memory
  int blocks;
};

// The order as device tables, one per frame shape (a pyramid's levels each have theirs), built and
// copied up on the stream the first time a shape comes.
class PathBlockOrder {
 public:
  PathBlockTable table(int width, int height, int paths, cudaStream_t stream);

 private:
  struct Table {
    int width, height, paths;
    DeviceBuffer<uint32_t> entries;
    int blocks;
  };
  std::vector<Table> tables_;
};

}  // namespace sv::cuda
