#pragma once

#include <functional>

namespace sv {

// Runs body(i) for i in [begin, end) on the calling thread and up to worker_count() - 1 others
// (kept in a pool), in contiguous chunks taken from a shared counter: a thread that starts late
// takes fewer chunks, so the call never waits for a thread that has not started.
// A call from inside another call's body runs serially on its thread.
// Results are deterministic as long as each i writes only its own outputs.
void parallel_for(int begin, int end, const std::function<void(int)>& body);

// Threads used by parallel_for; defaults to the hardware concurrency.
int worker_count();
void set_worker_count(int count);  // 0 restores the default

}  // namespace sv
