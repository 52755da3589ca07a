#include "src/app/engine_factory.h"

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/device_info.h"
#endif

namespace sv {
namespace {

// Why the CUDA engine cannot run here, in a few words.
std::string cuda_unavailable_reason() {
#ifdef STEREOVIEW_HAS_CUDA
  const cuda::DeviceInfo device = cuda::query_device();
  if (!device.available) return device.reason;
  return "CUDA device " + device.name + " found, but the CUDA engine is not implemented yet";
#else
  return "this build has no CUDA support (nvcc was not found at configure time)";
#endif
}

}  // namespace

std::unique_ptr<StereoEngine> make_engine(const std::string& kind, std::ostream& notices) {
  if (kind == "cpu") return std::make_unique<CpuEngine>();
  const std::string why = cuda_unavailable_reason();
  if (kind == "cuda") throw RuntimeError("--engine cuda: " + why + "; use --engine cpu");
  notices << "note: " << why << "; using the CPU engine\n";
  return std::make_unique<CpuEngine>();
}

}  // namespace sv
