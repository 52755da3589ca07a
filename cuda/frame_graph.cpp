#include "cuda/frame_graph.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {
namespace {

// Destroys a captured graph on every path.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  ~CapturedGraph() {
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
};

}  // namespace

FrameGraph::~FrameGraph() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
}

void FrameGraph::run(cudaStream_t stream, const std::function<void()>& enqueue) {
  CapturedGraph captured;
  // Relaxed: the host code between the launches queries the device (occupancy, attributes),
  // which the stricter modes refuse during a capture; nothing it captures waits on the host.
  SV_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  try {
    enqueue();
  } catch (...) {
    cudaStreamEndCapture(stream, &captured.graph);  // leaves the stream usable; nothing runs
    cudaGetLastError();  // an invalidated capture leaves its error behind
    throw;
  }
  SV_CUDA_CHECK(cudaStreamEndCapture(stream, &captured.graph));
  if (exec_ != nullptr) {
    cudaGraphExecUpdateResultInfo info{};
    if (cudaGraphExecUpdate(exec_, captured.graph, &info) != cudaSuccess) {
      cudaGetLastError();  // a changed shape is expected: build a new executable below
      SV_CUDA_CHECK(cudaGraphExecDestroy(exec_));
      exec_ = nullptr;
    }
  }
  if (exec_ == nullptr) {
    SV_CUDA_CHECK(cudaGraphInstantiate(&exec_, captured.graph, 0));
    ++instantiations_;
  }
  SV_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
  ++launches_;
}

}  // namespace sv::cuda
