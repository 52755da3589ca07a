#include "src/app/pair_fan_out.h"

#include <algorithm>
#include <chrono>

namespace sv {
namespace {

// How long the thread waits for a pair before it looks at stop() again.
constexpr auto kPollInterval = std::chrono::milliseconds(20);

}  // namespace

PairFanOut::PairFanOut(PairQueue& input) : input_(input) {}

PairFanOut::~PairFanOut() { stop(); }

void PairFanOut::attach(std::shared_ptr<PairQueue> output) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (input_ended_ || stop_requested_) {
    output->close();
    return;
  }
  outputs_.push_back(std::move(output));
}

void PairFanOut::detach(const std::shared_ptr<PairQueue>& output) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    outputs_.erase(std::remove(outputs_.begin(), outputs_.end(), output), outputs_.end());
  }
  // The thread may hold its own reference while it pushes: closing wakes that push, and the
  // shared ownership keeps the queue alive until it returns.
  output->close();
}

void PairFanOut::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void PairFanOut::stop() {
  stop_requested_ = true;
  close_outputs();
  if (thread_.joinable()) thread_.join();
}

void PairFanOut::close_outputs() {
  std::vector<std::shared_ptr<PairQueue>> outputs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    outputs = outputs_;
  }
  for (const auto& output : outputs) output->close();
}

void PairFanOut::run() {
  while (!stop_requested_) {
    std::optional<StereoPair> pair = input_.pop_for(kPollInterval);
    if (!pair) {
      if (input_.closed() && input_.size() == 0) break;
      continue;
    }
    ++forwarded_;
    std::vector<std::shared_ptr<PairQueue>> outputs;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      outputs = outputs_;
    }
    // A copy for every output but the last, which takes the pair itself; pooled views are
    // shared (sharing_views), not copied: every output only reads them.
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (i + 1 < outputs.size()) {
        outputs[i]->push(sharing_views(*pair));
      } else {
        outputs[i]->push(std::move(*pair));
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    input_ended_ = true;
  }
  close_outputs();
}

}  // namespace sv
