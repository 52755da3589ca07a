#pragma once

#include <memory>

#include "src/core/frame_source.h"

namespace sv {

// Plays a finite source over and over (--loop): at its end it seeks back to the first pair.
// Indices keep counting up across loops so every delivered pair stays distinct downstream.
// A source that cannot seek, or that is empty, ends as it would without looping.
class LoopingSource : public WrappingSource {
 public:
  using WrappingSource::WrappingSource;

  std::string describe() const override { return inner_->describe() + ", looping"; }
  int64_t frame_count() const override { return -1; }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

 private:
  int64_t delivered_ = 0;
};

}  // namespace sv
