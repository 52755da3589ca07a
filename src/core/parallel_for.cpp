#include "src/core/parallel_for.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sv {
namespace {

std::atomic<int> g_worker_override{0};

// Whether this thread is running a parallel_for's body: a call made from there runs serially,
// since the outer call already keeps every worker busy.
thread_local bool t_inside_job = false;

// One parallel_for call: chunks of `grain` indices handed out from a shared counter, so whoever
// is running takes the next chunk. A helper the OS schedules late takes fewer chunks or none,
// and the caller never waits for a helper that has not started: it waits only for chunks
// already being worked on.
struct Job {
  int begin = 0;
  int end = 0;
  int grain = 1;
  const std::function<void(int)>* body = nullptr;
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;

  void work() {
    const bool was_inside = t_inside_job;
    t_inside_job = true;
    run_chunks();
    t_inside_job = was_inside;
  }

 private:
  void run_chunks() {
    for (;;) {
      const int first = next.fetch_add(grain, std::memory_order_relaxed);
      if (first >= end) return;
      const int last = std::min(end, first + grain);
      try {
        for (int i = first; i < last; ++i) (*body)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  }
};

// Threads kept from call to call (starting a thread per call costs more than a small loop, and
// on a loaded machine a fresh thread may wait a time slice for its first run). One job at a
// time; a caller that finds the pool busy with another thread's call spawns its own threads.
class WorkerPool {
 public:
  // Never destroyed: a call made while the program exits (from a thread still running) finds
  // it intact; its threads wait idle until the process ends.
  static WorkerPool& instance() {
    static WorkerPool* pool = [] {
      pthread_atfork([] { instance().end_idle_threads(); }, nullptr, nullptr);
      return new WorkerPool;
    }();
    return *pool;
  }

  // Before a fork (pthread_atfork): the idle threads end, and the next call starts new ones. A
  // child has only the thread that forked, and ThreadSanitizer stops a child that starts a thread
  // after a fork of a process with others running (the recording tests fork to limit a file's
  // size). A pool busy with a call, or a fork from inside a body, keeps its threads.
  void end_idle_threads() {
    if (t_inside_job) return;
    std::vector<std::thread> ending;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job_ != nullptr || threads_.empty()) return;
      ending.swap(threads_);
      ending_ = true;
      ++generation_;
    }
    wake_.notify_all();
    for (std::thread& t : ending) t.join();
    std::lock_guard<std::mutex> lock(mutex_);
    ending_ = false;
  }

  // Runs `job` on the caller and up to `helpers` pool threads; false (nothing run) when busy.
  bool run(Job& job, int helpers) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job_ != nullptr || ending_) return false;
      while (static_cast<int>(threads_.size()) < helpers) {
        threads_.emplace_back([this] { serve(); });
      }
      job_ = &job;
      seats_ = helpers;
      ++generation_;
    }
    wake_.notify_all();
    job.work();
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = nullptr;  // closed: no helper enters from now on
    done_.wait(lock, [this] { return inside_ == 0; });
    return true;
  }

 private:
  void serve() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (ending_) return;
      if (job_ == nullptr || seats_ == 0) continue;  // closed already, or enough helpers
      Job* job = job_;
      --seats_;
      ++inside_;
      lock.unlock();
      job->work();
      lock.lock();
      if (--inside_ == 0) done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  int seats_ = 0;   // helpers that may still join the current job
  int inside_ = 0;  // helpers working on it
  bool ending_ = false;  // end_idle_threads() is ending the threads
};

// The fallback: a thread per further worker for this call alone.
void run_on_fresh_threads(Job& job, int threads) {
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) workers.emplace_back([&job] { job.work(); });
  job.work();
  for (auto& w : workers) w.join();
}

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
  const int threads = t_inside_job ? 1 : std::min(worker_count(), n);
  if (threads == 1) {
    for (int i = begin; i < end; ++i) body(i);
    return;
  }
  // Chunks of contiguous indices keep a thread on neighbouring rows (cache friendly); sixteen
  // per thread let a thread that runs late hand its share to the others, and one that loses its
  // core mid-chunk holds the call up for a sixteenth of its share at most. The first exception
  // is rethrown on the calling thread once every worker has stopped.
  Job job;
  job.begin = begin;
  job.end = end;
  job.grain = std::max(1, n / (threads * 16));
  job.body = &body;
  job.next.store(begin, std::memory_order_relaxed);
  if (!WorkerPool::instance().run(job, threads - 1)) run_on_fresh_threads(job, threads);
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace sv
