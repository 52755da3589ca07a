#include <algorithm>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/path_block_order.h"
#include "cuda/sgm_path_geometry.cuh"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

int blocks_of(SgmDirection r, int width, int height) {
  return (sgm_path_count(r, width, height) + kFreePathsPerBlock - 1) / kFreePathsPerBlock;
}

FreePathBlock block_with_length(int direction, int block, int width, int height) {
  const SgmDirection r = sgm_direction(direction);
  const int paths = sgm_path_count(r, width, height);
  int longest = 0;
  for (int p = block * kFreePathsPerBlock; p < (block + 1) * kFreePathsPerBlock && p < paths; ++p) {
    longest = std::max(longest, sgm_path(r, p, width, height).length);
  }
  return {direction, block, longest};
}

}  // namespace

std::vector<FreePathBlock> free_path_blocks(int width, int height, int paths) {
  std::vector<FreePathBlock> order;
  auto add = [&](int direction, int block) {
    order.push_back(block_with_length(direction, block, width, height));
  };
  for (int direction = 0; direction < 2; ++direction) {
    for (int b = 0; b < blocks_of(sgm_direction(direction), width, height); ++b) add(direction, b);
  }
  if (paths == 4) {
    for (int direction = 2; direction < 4; ++direction) {
      for (int b = 0; b < blocks_of(sgm_direction(direction), width, height); ++b)
        add(direction, b);
    }
  } else {
    // Each sense: its vertical direction and both diagonals block by block where all three start
    // from the first (last) row, then the diagonals' blocks that start from the sides.
    const int column_blocks = blocks_of(sgm_direction(2), width, height);
    for (const int vertical : {2, 3}) {
      const int first_diagonal = vertical == 2 ? 4 : 6;
      const int diagonal_blocks = blocks_of(sgm_direction(first_diagonal), width, height);
      for (int b = 0; b < column_blocks; ++b) {
        add(vertical, b);
        add(first_diagonal, b);
        add(first_diagonal + 1, b);
      }
      for (int b = column_blocks; b < diagonal_blocks; ++b) {
        add(first_diagonal, b);
        add(first_diagonal + 1, b);
      }
    }
  }
  std::stable_sort(order.begin(), order.end(), [](const FreePathBlock& a, const FreePathBlock& b) {
    return a.longest > b.longest;
  });
  return order;
}

PathBlockTable PathBlockOrder::table(int width, int height, int paths, cudaStream_t stream) {
  for (Table& t : tables_) {
    if (t.width == width && t.height == height && t.paths == paths)
      return {t.entries.data(), t.blocks};
  }
  // Shapes come from the source and the pyramid: a handful. Past that, start again (freeing device
  // memory waits for the kernels still reading it).
  constexpr size_t kMostShapes = 16;
  if (tables_.size() == kMostShapes) tables_.clear();
  std::vector<uint32_t> host;
  for (const FreePathBlock& b : free_path_blocks(width, height, paths)) {
    if (b.block >= (1 << kPathBlockDirectionShift)) {
      throw InputError("SGM: a " + std::to_string(width) + "x" + std::to_string(height) +
                       " frame has more path blocks than the free schedule can number");
    }
    host.push_back(static_cast<uint32_t>(b.direction) << kPathBlockDirectionShift |
                   static_cast<uint32_t>(b.block));
  }
  Table& t = tables_.emplace_back(Table{width, height, paths, DeviceBuffer<uint32_t>(host.size()),
                                        static_cast<int>(host.size())});
  // From pageable memory the copy is staged before the call returns, so `host` may go.
  SV_CUDA_CHECK(cudaMemcpyAsync(t.entries.data(), host.data(), host.size() * sizeof(uint32_t),
                                cudaMemcpyHostToDevice, stream));
  return {t.entries.data(), t.blocks};
}

}  // namespace sv::cuda
