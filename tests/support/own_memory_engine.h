#pragma once

// A stand-in engine with host memory of its own (counted), matching with the CPU reference: the
// tests' way to see whether a frame loop hands its pairs to an engine in that engine's memory.
#include <memory>
#include <string>
#include <utility>

#include "src/core/cpu_engine.h"
#include "tests/support/counting_host_memory.h"
#include "tests/support/fake_engine.h"

namespace sv::test {

class OwnMemoryEngine : public FakeEngine {
 public:
  explicit OwnMemoryEngine(std::shared_ptr<CountingHostMemory> memory)
      : memory_(std::move(memory)) {}
  std::string name() const override { return "own-memory"; }
  std::shared_ptr<HostMemory> host_memory() const override { return memory_; }

  // Whether both planes of `pair` lie at the start of blocks of this engine's memory.
  bool in_own_memory(const PairView& pair) const {
    const auto ours = [&](const void* plane, const std::shared_ptr<PixelBlock>& block) {
      return block && &block->memory() == memory_.get() && plane == block->data();
    };
    return ours(pair.left, pair.left_block) && ours(pair.right, pair.right_block);
  }

 protected:
  DisparityResult match(const ImageU8& left, const ImageU8& right,
                        const StereoParams& params) override {
    return cpu_.compute(left, right, params);
  }

 private:
  std::shared_ptr<CountingHostMemory> memory_;
  CpuEngine cpu_;
};

}  // namespace sv::test
