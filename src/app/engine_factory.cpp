#include "src/app/engine_factory.h"

#include <memory>
#include <set>
#include <type_traits>

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/remap.h"
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
// goes on with the CPU engine for this and every later frame. Algorithms the CUDA engine has no
// version of run on the CPU engine frame by frame, with one notice per algorithm.
class FallbackEngine : public StereoEngine {
 public:
  FallbackEngine(std::unique_ptr<StereoEngine> primary, std::ostream& notices)
      : primary_(std::move(primary)), notices_(notices) {}

  std::string name() const override { return primary_ ? primary_->name() : fallback_.name(); }
  void set_keep_device_results(bool keep) override {
    if (primary_) primary_->set_keep_device_results(keep);
  }
  // The CUDA engine's GPU remap; the maps are kept so that pairs still raw when the CPU engine
  // takes over are rectified on the host first.
  bool set_rectification(std::shared_ptr<const RectificationMaps> maps) override {
    rectification_ = primary_ ? maps : nullptr;
    if (!primary_) return false;
    return primary_->set_rectification(std::move(maps));
  }

  DisparityResult compute(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override {
    return route(left, right, params);
  }
  DisparityResult compute(const ImageRgb8& left, const ImageRgb8& right,
                          const StereoParams& params) override {
    return route(left, right, params);
  }
  DisparityResult compute(const ImageU16& left, const ImageU16& right,
                          const StereoParams& params) override {
    return route(left, right, params);
  }
  bool supports_high_bit_depth(const StereoParams& params) const override {
    return fallback_.supports_high_bit_depth(params);
  }
  DisparityResult compute(const ImageF32& left, const ImageF32& right,
                          const StereoParams& params) override {
    return route(left, right, params);
  }
  bool supports_float_input(const StereoParams& params) const override {
    return fallback_.supports_float_input(params);
  }
  // The engine that will compute the frame: the CUDA engine while it runs the algorithm.
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override {
    if (primary_ && primary_->supports(params)) return primary_->frame_cost(width, height, params);
    return fallback_.frame_cost(width, height, params);
  }
  std::optional<uint64_t> free_device_bytes() const override {
    return primary_ ? primary_->free_device_bytes() : std::nullopt;
  }

 private:
  // The same routing for 8-bit, colour, 16-bit and float input.
  template <typename Image>
  DisparityResult route(const Image& left, const Image& right, const StereoParams& params) {
    if (primary_ && !primary_->supports(params)) {
      if (cpu_only_noticed_.insert(params.algorithm).second) {
        notices_ << "note: " << params.algorithm
                 << " has no CUDA version yet; it runs on the CPU engine\n";
      }
      return on_cpu(left, right, params);
    }
    if (primary_) {
      try {
        return primary_->compute(left, right, params);
      } catch (const InputError&) {
        throw;
      } catch (const RuntimeError& e) {
        notices_ << "note: the CUDA engine failed (" << e.what()
                 << "); continuing with the CPU engine\n";
        primary_.reset();
      }
    }
    return on_cpu(left, right, params);
  }

  // The CPU engine on a pair, rectified on the host first when the CUDA engine was to do it.
  template <typename Image>
  DisparityResult on_cpu(const Image& left, const Image& right, const StereoParams& params) {
    if (!rectification_) return fallback_.compute(left, right, params);
    Image rectified_left = left, rectified_right = right;
    rectify_pair(*rectification_, rectified_left, rectified_right);
    DisparityResult result = fallback_.compute(rectified_left, rectified_right, params);
    if constexpr (std::is_same_v<Image, ImageRgb8>) {
      result.rectified_left = std::move(rectified_left);
      result.rectified_right = std::move(rectified_right);
    }
    return result;
  }

  std::unique_ptr<StereoEngine> primary_;
  DefaultCpuEngine fallback_;
  std::ostream& notices_;
  std::set<std::string> cpu_only_noticed_;
  std::shared_ptr<const RectificationMaps> rectification_;  // null: the pairs are rectified
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
