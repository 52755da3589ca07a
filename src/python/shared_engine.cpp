#include "src/python/shared_engine.h"

#include <utility>

#include "src/app/engine_factory.h"
#include "src/core/error.h"

namespace sv::python {

SharedEngine::SharedEngine(const std::string& engine_kind) {
  if (engine_kind != "cpu" && engine_kind != "reference" && engine_kind != "cuda" &&
      engine_kind != "auto")
    throw InputError("--engine must be cpu, reference, cuda or auto, got \"" + engine_kind + "\"");
  engine_ = make_engine(engine_kind, notices_);
}

std::string SharedEngine::name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return engine_->name();
}

std::string SharedEngine::notices() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return notices_.str();
}

void SharedEngine::require_frame_fits(int width, int height, const StereoParams& params) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string slow = budget_.check(*engine_, width, height, params);
  if (!slow.empty()) notices_ << "note: " << slow << "\n";
}

uint64_t SharedEngine::submit(const FrameRequest& request) {
  std::lock_guard<std::mutex> lock(mutex_);
  engine_->submit(request);
  return next_ticket_++;
}

DisparityResult SharedEngine::collect(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mutex_);
  return collect_locked(ticket);
}

DisparityResult SharedEngine::compute(const FrameRequest& request) {
  std::lock_guard<std::mutex> lock(mutex_);
  engine_->submit(request);
  return collect_locked(next_ticket_++);
}

DisparityResult SharedEngine::collect_locked(uint64_t ticket) {
  if (ticket >= next_ticket_ || (ticket < oldest_in_engine_ && kept_.count(ticket) == 0))
    throw InputError("frame " + std::to_string(ticket) +
                     " was never submitted or was collected already");
  // Frames come out of the engine in submission order: those before `ticket` are kept.
  while (oldest_in_engine_ <= ticket) {
    Outcome& outcome = kept_[oldest_in_engine_++];
    try {
      engine_->collect(outcome.result);
    } catch (const std::exception&) {
      outcome.error = std::current_exception();
    }
  }
  Outcome outcome = std::move(kept_.at(ticket));
  kept_.erase(ticket);
  if (outcome.error) std::rethrow_exception(outcome.error);
  return std::move(outcome.result);
}

}  // namespace sv::python
