#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "src/core/host_memory.h"

namespace sv {

// A bounded set of reusable blocks of one HostMemory: a frame loop's pairs and an engine's
// results recycle the same few blocks instead of allocating every frame (issue 18). A block is
// out while anyone holds its shared_ptr (the image made over it, an engine uploading from it)
// and returns to the pool when the last holder lets go, never earlier, and is then handed out
// again. At most `max_blocks` exist at a time: with all of them out acquire() returns null and
// the caller uses memory of its own, so a slow consumer never makes a source wait.
// Thread-safe: a source takes blocks on the capture thread, the engine's thread lets them go.
class BlockPool {
 public:
  BlockPool(std::shared_ptr<HostMemory> memory, int max_blocks);
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  // A free block of exactly `bytes` (a new one while fewer than max_blocks exist, after freeing
  // idle blocks of other sizes), or null when every block is out. Its contents are whatever the
  // last holder left: the caller writes every byte it reads.
  std::shared_ptr<PixelBlock> acquire(size_t bytes);

  // Changes the memory of the blocks made from now on (an engine switch); idle blocks of the old
  // memory are freed at once, blocks still out when they come back.
  void use_memory(std::shared_ptr<HostMemory> memory);
  std::shared_ptr<HostMemory> memory() const;

  int max_blocks() const;
  // Blocks in existence (out or idle) and out now; allocations made since the pool began. A frame
  // loop in its steady state makes no allocation (tests count them).
  int blocks() const;
  int blocks_out() const;
  int64_t allocations() const;

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the blocks out, which come back to it
};

// An image over a pooled block when the pool has one free, else an image of its own memory.
// Pooled pixels are left as they were: the caller writes all of them.
template <typename Image>
Image pooled_image(BlockPool* pool, int width, int height);

// `image`'s pixels written into a pooled block (or a copy of its own when the pool has none).
template <typename Image>
Image pooled_copy(BlockPool* pool, const Image& image);

}  // namespace sv

#include "src/core/image.h"

namespace sv {

template <typename Image>
Image pooled_image(BlockPool* pool, int width, int height) {
  using T = typename Image::value_type;
  const size_t bytes = static_cast<size_t>(width) * height * sizeof(T);
  if (pool != nullptr && bytes > 0) {
    if (std::shared_ptr<PixelBlock> block = pool->acquire(bytes)) {
      return Image::over(width, height, std::move(block));
    }
  }
  return Image(width, height);
}

template <typename Image>
Image pooled_copy(BlockPool* pool, const Image& image) {
  Image copy = pooled_image<Image>(pool, image.width(), image.height());
  std::copy(image.data(), image.data() + image.size(), copy.data());
  return copy;
}

}  // namespace sv
