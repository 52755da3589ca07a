#include "src/core/frame_worker.h"

#include <chrono>
#include <utility>

#include "src/core/error.h"

namespace sv {

FrameWorker::FrameWorker(std::string engine_name, Compute compute)
    : engine_name_(std::move(engine_name)), compute_(std::move(compute)) {}

FrameWorker::~FrameWorker() { stop(); }

void FrameWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FrameWorker::submit(const FrameRequest& request) {
  Job job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw RuntimeError("the " + engine_name_ + " engine is stopping");
  }
  job.request = request;
  job.request.pair.left = job.request.pair.right = nullptr;
  job.request.pair.left_block = job.request.pair.right_block = nullptr;  // copied: not held
  job.request.views.left = job.request.views.right = nullptr;
  job.request.views.left_block = job.request.views.right_block = nullptr;
  const auto copy_start = std::chrono::steady_clock::now();
  try {
    job.pair = HostPair::copy_of(request, engine_name_);
  } catch (...) {
    job.error = std::current_exception();
  }
  job.copy_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - copy_start)
          .count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  changed_.notify_all();
}

void FrameWorker::collect(DisparityResult& result) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (outcomes_.empty() && jobs_.empty() && !computing_) {
    throw RuntimeError("the " + engine_name_ + " engine: collect() without a submitted frame");
  }
  const auto wait_start = std::chrono::steady_clock::now();
  changed_.wait(lock, [&] { return !outcomes_.empty(); });
  const std::chrono::duration<double, std::milli> waited =
      std::chrono::steady_clock::now() - wait_start;
  Outcome outcome = std::move(outcomes_.front());
  outcomes_.pop_front();
  lock.unlock();
  if (outcome.error) std::rethrow_exception(outcome.error);
  result = std::move(outcome.result);
  result.timings.collect_wait_ms = waited.count();
}

int FrameWorker::frames_in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(jobs_.size() + outcomes_.size()) + (computing_ ? 1 : 0);
}

void FrameWorker::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    computing_ = true;
    lock.unlock();
    Outcome outcome;
    outcome.error = job.error;
    if (!outcome.error) {
      try {
        outcome.result = compute_(job.pair, job.request);
        outcome.result.timings.host_copy_ms = job.copy_ms;
      } catch (...) {
        outcome.error = std::current_exception();
      }
    }
    lock.lock();
    computing_ = false;
    outcomes_.push_back(std::move(outcome));
    changed_.notify_all();
  }
}

}  // namespace sv
