// parallel_for: every index once, on any worker count, from nested and concurrent callers, with
// the first exception rethrown; a forked child (the pool's idle threads end before the fork)
// runs it and starts threads of its own.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "src/core/parallel_for.h"

namespace sv {
namespace {

// How often parallel_for ran each index of [0, n).
std::vector<int> visits(int n) {
  std::vector<std::atomic<int>> count(n);
  parallel_for(0, n, [&](int i) { count[i].fetch_add(1); });
  std::vector<int> out;
  for (auto& c : count) out.push_back(c.load());
  return out;
}

TEST(ParallelFor, RunsEveryIndexOnceForAnyWorkerCount) {
  for (const int workers : {1, 2, 3, 8}) {
    set_worker_count(workers);
    for (const int n : {1, 2, 3, 17, 64, 1000}) {
      EXPECT_EQ(visits(n), std::vector<int>(n, 1)) << workers << " workers, " << n << " indices";
    }
  }
  set_worker_count(0);
}

TEST(ParallelFor, HonoursTheRangeStart) {
  set_worker_count(2);
  std::vector<std::atomic<int>> seen(20);
  parallel_for(5, 20, [&](int i) { seen[i].fetch_add(1); });
  for (int i = 0; i < 20; ++i) EXPECT_EQ(seen[i].load(), i >= 5 ? 1 : 0) << i;
  parallel_for(7, 7, [&](int) { FAIL() << "an empty range runs nothing"; });
  set_worker_count(0);
}

TEST(ParallelFor, NestedAndConcurrentCallsEachRunEveryIndex) {
  set_worker_count(2);
  std::vector<std::atomic<int>> cells(8 * 50);
  parallel_for(0, 8, [&](int outer) {  // the inner calls run serially on their threads
    parallel_for(0, 50, [&](int inner) { cells[outer * 50 + inner].fetch_add(1); });
  });
  for (auto& c : cells) EXPECT_EQ(c.load(), 1);
  std::vector<int> a, b;
  std::thread other([&] { a = visits(3000); });
  b = visits(3000);
  other.join();
  EXPECT_EQ(a, std::vector<int>(3000, 1));
  EXPECT_EQ(b, std::vector<int>(3000, 1));
  set_worker_count(0);
}

TEST(ParallelFor, RethrowsTheFirstExceptionAfterEveryWorkerStopped) {
  for (const int workers : {1, 2}) {
    set_worker_count(workers);
    std::atomic<int> ran{0};
    EXPECT_THROW(parallel_for(0, 100, [&](int i) {
                   ran.fetch_add(1);
                   if (i == 42) throw std::runtime_error("index 42");
                 }),
                 std::runtime_error);
    EXPECT_GE(ran.load(), 1);
    EXPECT_EQ(visits(10), std::vector<int>(10, 1)) << "the pool still works afterwards";
  }
  set_worker_count(0);
}

// The recording tests fork a child that records on a thread of its own. The pool's threads end
// before the fork, so the child of this process is that of a single-threaded one (which
// ThreadSanitizer requires of a child that starts threads), and its calls still run every index.
TEST(ParallelFor, AForkedChildRunsItAndStartsThreads) {
  set_worker_count(4);
  ASSERT_EQ(visits(1000), std::vector<int>(1000, 1));  // the pool's threads exist now
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    bool ok = visits(1000) == std::vector<int>(1000, 1);
    std::atomic<bool> ran{false};
    std::thread other([&] { ran = true; });
    other.join();
    _exit(ok && ran ? 0 : 3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(visits(1000), std::vector<int>(1000, 1));  // and the parent's pool starts again
  set_worker_count(0);
}

}  // namespace
}  // namespace sv
