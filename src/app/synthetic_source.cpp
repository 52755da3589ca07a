#include "src/app/synthetic_source.h"

#include <string>

#ifdef STEREOVIEW_HAS_CPU_FAST
#include "src/cpu_fast/fast_synthetic_views.h"
#endif

namespace sv {

std::string SyntheticSource::describe() const {
  const SyntheticSceneConfig& c = scene_.config();
  return "synthetic " + std::to_string(c.width) + "x" + std::to_string(c.height);
}

std::optional<StereoPair> SyntheticSource::next() {
  // The same views either way; the SIMD renderer draws them at camera rate.
#ifdef STEREOVIEW_HAS_CPU_FAST
  SyntheticFrame frame = fast_synthetic_views(scene_, static_cast<int>(next_index_), pair_memory());
#else
  SyntheticFrame frame = scene_.render_views(static_cast<int>(next_index_), pair_memory());
#endif
  StereoPair pair;
  pair.index = next_index_++;
  pair.timestamp_s = frame.timestamp_s;
  pair.left = std::move(frame.left);
  pair.right = std::move(frame.right);
  return pair;
}

bool SyntheticSource::seek(int64_t index) {
  if (index < 0) return false;
  next_index_ = index;
  return true;
}

}  // namespace sv
