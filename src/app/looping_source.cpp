#include "src/app/looping_source.h"

namespace sv {

std::optional<StereoPair> LoopingSource::next() {
  std::optional<StereoPair> pair = inner_->next();
  if (!pair && delivered_ > 0 && inner_->seek(0)) pair = inner_->next();
  if (pair) pair->index = delivered_++;
  return pair;
}

bool LoopingSource::seek(int64_t index) {
  const int64_t count = inner_->frame_count();
  if (index < 0 || !inner_->seek(count > 0 ? index % count : index)) return false;
  delivered_ = index;
  return true;
}

}  // namespace sv
