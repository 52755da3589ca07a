#include "src/core/block_pool.h"

#include <mutex>
#include <new>
#include <vector>

#include "src/core/error.h"

namespace sv {
namespace {

class PlainHostMemory : public HostMemory {
 public:
  void* allocate(size_t bytes) override {
    void* data = ::operator new(bytes, std::align_val_t(kAlignment), std::nothrow);
    if (data == nullptr) {
      throw RuntimeError("out of host memory: " + std::to_string(bytes) + " bytes");
    }
    return data;
  }
  void free(void* data) noexcept override { ::operator delete(data, std::align_val_t(kAlignment)); }
  const char* name() const override { return "plain"; }

 private:
  static constexpr size_t kAlignment = 64;
};

}  // namespace

std::shared_ptr<HostMemory> plain_host_memory() {
  static const std::shared_ptr<HostMemory> memory = std::make_shared<PlainHostMemory>();
  return memory;
}

struct BlockPool::State {
  mutable std::mutex mutex;
  std::shared_ptr<HostMemory> memory;
  std::vector<PixelBlock> idle;
  int max_blocks = 0;
  int blocks = 0;
  int out = 0;
  int64_t allocations = 0;

  void free_block(const PixelBlock& block) {
    block.memory().free(block.data());
    --blocks;
  }
  // A block whose last holder let go: idle again, or freed when the pool's memory changed.
  void give_back(const PixelBlock& block) {
    std::lock_guard<std::mutex> lock(mutex);
    --out;
    if (&block.memory() == memory.get()) {
      idle.push_back(block);
    } else {
      free_block(block);
    }
  }
  ~State() {
    for (const PixelBlock& block : idle) free_block(block);
  }
};

BlockPool::BlockPool(std::shared_ptr<HostMemory> memory, int max_blocks)
    : state_(std::make_shared<State>()) {
  if (!memory) throw InputError("BlockPool needs a HostMemory");
  if (max_blocks < 1) throw InputError("BlockPool needs room for at least one block");
  state_->memory = std::move(memory);
  state_->max_blocks = max_blocks;
}

// Blocks still out keep the state (and their memory) alive until they come back.
BlockPool::~BlockPool() = default;

std::shared_ptr<PixelBlock> BlockPool::acquire(size_t bytes) {
  std::unique_lock<std::mutex> lock(state_->mutex);
  State& s = *state_;
  PixelBlock* chosen = nullptr;
  for (PixelBlock& block : s.idle) {
    if (block.bytes() == bytes) {
      chosen = &block;
      break;
    }
  }
  PixelBlock block(nullptr, 0, nullptr);
  if (chosen != nullptr) {
    block = *chosen;
    *chosen = s.idle.back();
    s.idle.pop_back();
  } else {
    // Room for a new block: idle blocks of other sizes (an earlier frame size) go first.
    while (s.blocks >= s.max_blocks && !s.idle.empty()) {
      s.free_block(s.idle.back());
      s.idle.pop_back();
    }
    if (s.blocks >= s.max_blocks) return nullptr;
    block = PixelBlock(s.memory->allocate(bytes), bytes, s.memory.get());
    ++s.blocks;
    ++s.allocations;
  }
  ++s.out;
  // The deleter holds the state and the block's memory, so a block can outlive its pool.
  std::shared_ptr<State> state = state_;
  std::shared_ptr<HostMemory> memory = s.memory;
  return std::shared_ptr<PixelBlock>(new PixelBlock(block), [state, memory](PixelBlock* p) {
    state->give_back(*p);
    delete p;
  });
}

void BlockPool::use_memory(std::shared_ptr<HostMemory> memory) {
  if (!memory) throw InputError("BlockPool needs a HostMemory");
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (memory == state_->memory) return;
  for (const PixelBlock& block : state_->idle) state_->free_block(block);
  state_->idle.clear();
  state_->memory = std::move(memory);
}

std::shared_ptr<HostMemory> BlockPool::memory() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->memory;
}

int BlockPool::max_blocks() const { return state_->max_blocks; }

int BlockPool::blocks() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->blocks;
}

int BlockPool::blocks_out() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->out;
}

int64_t BlockPool::allocations() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->allocations;
}

}  // namespace sv
