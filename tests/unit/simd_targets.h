#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hwy/highway.h"
#include "hwy/targets.h"

namespace sv::test {

// Runs `body(target name)` once on every Highway target this binary has code for and this CPU
// can run (AVX-512, AVX2, SSE4, ... down to the baseline), each pinned with Highway's test hook,
// so every SIMD path of the fast stages is checked, not just the best one. Restores the CPU's
// own choice afterwards. Returns the targets run, best first.
inline std::vector<std::string> for_each_simd_target(const std::function<void(const std::string&)>& body) {
  std::vector<std::string> names;
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    names.emplace_back(hwy::TargetName(target));
    body(names.back());
  }
  hwy::SetSupportedTargetsForTest(0);
  return names;
}

}  // namespace sv::test
