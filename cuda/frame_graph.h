#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace sv::cuda {

// A frame's GPU work submitted as one CUDA graph instead of one launch per kernel, memset, copy
// and timing event: the GPU then runs the nodes back to back without waiting for each launch.
// Every frame's host code runs as before, queuing into a capture of the stream; the captured
// graph updates the executable graph of the previous frame in place (pointers, sizes and launch
// shapes may change), and is instantiated anew only when its shape changed (other parameters, a
// new size). Owned per stream and slot: two graphs in flight never share one executable.
//
// Captured work must be stream-ordered device work (kernels, async memsets and device copies,
// events recorded through StageEvents, fork/join of side streams); calls that wait for the
// device or read an event's state on the host must stay outside `enqueue`.
class FrameGraph {
 public:
  FrameGraph() = default;
  FrameGraph(const FrameGraph&) = delete;
  FrameGraph& operator=(const FrameGraph&) = delete;
  ~FrameGraph();

  // Captures what `enqueue` queues on `stream` and launches it there. If `enqueue` throws, the
  // capture is ended, nothing runs, and the exception goes on.
  void run(cudaStream_t stream, const std::function<void()>& enqueue);

  // Graphs launched, and of those the executables built anew (a new shape) rather than updated
  // in place: for tests and diagnostics.
  int launches() const { return launches_; }
  int instantiations() const { return instantiations_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
  int launches_ = 0;
  int instantiations_ = 0;
};

}  // namespace sv::cuda
