// The Highway target HWY_DYNAMIC_DISPATCH picks now, for logs, benchmarks and tests.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/simd_target.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <string>

#include "src/cpu_fast/fast_cpu_engine.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {

int64_t DispatchedTarget() { return HWY_TARGET; }

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(DispatchedTarget);

std::string fast_cpu_target_name() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(DispatchedTarget)()); }

}  // namespace sv
#endif  // HWY_ONCE
