#include "src/app/synthetic_source.h"

#include <string>

namespace sv {

std::string SyntheticSource::describe() const {
  const SyntheticSceneConfig& c = scene_.config();
  return "synthetic " + std::to_string(c.width) + "x" + std::to_string(c.height);
}

std::optional<StereoPair> SyntheticSource::next() {
  SyntheticFrame frame = scene_.render_views(static_cast<int>(next_index_));
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
