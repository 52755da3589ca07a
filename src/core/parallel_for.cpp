#include "src/core/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sv {
namespace {

std::atomic<int> g_worker_override{0};

}  // namespace

int worker_count() {
  const int forced = g_worker_override.load();
  if (forced > 0) return forced;
  return std::max(1u, std::thread::hardware_concurrency());
}

void set_worker_count(int count) { g_worker_override.store(std::max(0, count)); }

void parallel_for(int begin, int end, const std::function<void(int)>& body) {
  const int n = end - begin;
  if (n <= 0) return;
  const int threads = std::min(worker_count(), n);
  if (threads == 1) {
    for (int i = begin; i < end; ++i) body(i);
    return;
  }
  // Contiguous chunks keep each thread on neighbouring rows (cache friendly); the first
  // exception is rethrown on the calling thread once every worker has stopped.
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run_chunk = [&](int t) {
    const int chunk_begin = begin + static_cast<int>(static_cast<long long>(n) * t / threads);
    const int chunk_end = begin + static_cast<int>(static_cast<long long>(n) * (t + 1) / threads);
    try {
      for (int i = chunk_begin; i < chunk_end; ++i) body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) workers.emplace_back(run_chunk, t);
  run_chunk(0);
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace sv
