#include "src/app/engine_factory.h"

#include <deque>
#include <memory>
#include <set>

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#ifdef STEREOVIEW_HAS_CPU_FAST
#include "src/cpu_fast/fast_cpu_engine.h"
#endif
#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/cuda_engine.h"
#include "cuda/device_info.h"
#endif

namespace sv {
namespace {

// What `--engine cpu` and every fallback to the CPU run: the SIMD engine where this build has
// Google Highway, else the reference.
#ifdef STEREOVIEW_HAS_CPU_FAST
using DefaultCpuEngine = FastCpuEngine;
#else
using DefaultCpuEngine = CpuEngine;
#endif

#ifdef STEREOVIEW_HAS_CUDA
// Runs the CUDA engine and, on its first failure (a CUDA error, not bad input), says so once and
// goes on with the CPU engine for every later frame; frames that were in flight on the GPU then
// report the failure. Algorithms the CUDA engine has no version of run on the CPU engine frame by
// frame, with one notice per algorithm. Frames come back in submission order across both.
class FallbackEngine : public StereoEngine {
 public:
  FallbackEngine(std::unique_ptr<StereoEngine> primary, std::ostream& notices)
      : primary_(std::move(primary)), notices_(notices) {}

  std::string name() const override { return primary_ ? primary_->name() : fallback_.name(); }

  void submit(const FrameRequest& request) override {
    if (primary_ && !primary_->supports(request.params)) {
      if (cpu_only_noticed_.insert(request.params.algorithm).second) {
        notices_ << "note: " << request.params.algorithm
                 << " has no CUDA version yet; it runs on the CPU engine\n";
      }
    }
    const bool on_gpu = primary_ && primary_->supports(request.params);
    if (on_gpu) {
      try {
        primary_->submit(request);
      } catch (const RuntimeError& e) {
        give_up_gpu(e);
        fallback_.submit(request);
        routes_.push_back(Route::Cpu);
        return;
      }
    } else {
      fallback_.submit(request);
    }
    routes_.push_back(on_gpu ? Route::Gpu : Route::Cpu);
  }

  void collect(DisparityResult& result) override {
    if (routes_.empty()) throw RuntimeError("collect() without a submitted frame");
    const Route route = routes_.front();
    routes_.pop_front();
    if (route == Route::Cpu) {
      fallback_.collect(result);
      return;
    }
    if (!primary_) throw RuntimeError("lost with the CUDA engine's failure (see above)");
    try {
      primary_->collect(result);
    } catch (const InputError&) {
      throw;
    } catch (const RuntimeError& e) {
      give_up_gpu(e);
      throw RuntimeError(std::string("the CUDA engine failed on this frame: ") + e.what());
    }
  }
  using StereoEngine::collect;
  int frames_in_flight() const override { return static_cast<int>(routes_.size()); }

  bool supports_high_bit_depth(const StereoParams& params) const override {
    return fallback_.supports_high_bit_depth(params);
  }
  bool supports_float_input(const StereoParams& params) const override {
    return fallback_.supports_float_input(params);
  }
  // The CPU engine rectifies a request's raw pair on the host, so either route takes one.
  bool can_rectify() const override { return primary_ != nullptr; }
  bool accepts_device_input() const override { return primary_ != nullptr; }
  // The engine that will compute the frame: the CUDA engine while it runs the algorithm.
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override {
    if (primary_ && primary_->supports(params)) return primary_->frame_cost(width, height, params);
    return fallback_.frame_cost(width, height, params);
  }
  std::optional<uint64_t> free_device_bytes() const override {
    return primary_ ? primary_->free_device_bytes() : std::nullopt;
  }
  // The CUDA engine's pinned memory while it runs (the CPU engine reads it as well as its own).
  std::shared_ptr<HostMemory> host_memory() const override {
    return primary_ ? primary_->host_memory() : fallback_.host_memory();
  }

 private:
  enum class Route { Gpu, Cpu };

  void give_up_gpu(const RuntimeError& e) {
    if (!primary_) return;
    notices_ << "note: the CUDA engine failed (" << e.what()
             << "); continuing with the CPU engine\n";
    primary_.reset();
  }

  std::unique_ptr<StereoEngine> primary_;
  DefaultCpuEngine fallback_;
  std::ostream& notices_;
  std::set<std::string> cpu_only_noticed_;
  std::deque<Route> routes_;  // per frame in flight, oldest first
};
#endif

}  // namespace

std::unique_ptr<StereoEngine> make_engine(const std::string& kind, std::ostream& notices) {
  if (kind == "reference") return std::make_unique<CpuEngine>();
  if (kind == "cpu") return std::make_unique<DefaultCpuEngine>();
#ifdef STEREOVIEW_HAS_CUDA
  const cuda::DeviceInfo device = cuda::query_device();
  if (kind == "cuda") {
    if (!device.available) throw RuntimeError("--engine cuda: " + device.reason + "; use --engine cpu");
    return std::make_unique<cuda::CudaEngine>();
  }
  if (!device.available) {
    notices << "note: " << device.reason << "; using the CPU engine\n";
    return std::make_unique<DefaultCpuEngine>();
  }
  try {
    return std::make_unique<FallbackEngine>(std::make_unique<cuda::CudaEngine>(), notices);
  } catch (const RuntimeError& e) {
    notices << "note: cannot start the CUDA engine (" << e.what() << "); using the CPU engine\n";
    return std::make_unique<DefaultCpuEngine>();
  }
#else
  const std::string why = "this build has no CUDA support (nvcc was not found at configure time)";
  if (kind == "cuda") throw RuntimeError("--engine cuda: " + why + "; use --engine cpu");
  notices << "note: " << why << "; using the CPU engine\n";
  return std::make_unique<DefaultCpuEngine>();
#endif
}

}  // namespace sv
