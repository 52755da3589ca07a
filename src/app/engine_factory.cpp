#include "src/app/engine_factory.h"

#include "src/core/cpu_engine.h"
#include "src/core/error.h"

namespace sv {

std::unique_ptr<StereoEngine> make_engine(const std::string& kind, std::ostream& notices) {
  if (kind == "cpu") return std::make_unique<CpuEngine>();
  // The CUDA engine is not part of this build yet (it arrives with the CUDA issue).
  const std::string why = "this build has no CUDA engine";
  if (kind == "cuda") throw RuntimeError("--engine cuda: " + why + "; use --engine cpu");
  notices << "note: " << why << ", using the CPU engine\n";
  return std::make_unique<CpuEngine>();
}

}  // namespace sv
