#include "src/io/dataset_source.h"

#include "src/core/block_pool.h"

namespace sv {

DatasetSource::DatasetSource(const std::string& dir, double frames_per_second)
    : dir_(dir),
      layout_(detect_layout(dir)),
      samples_(std::make_shared<const std::vector<StereoSample>>(load_dataset(dir))),
      fps_(frames_per_second) {}

std::string DatasetSource::describe() const {
  return "dataset " + dir_ + " (" + layout_ + ", " + std::to_string(samples_->size()) + " pairs)";
}

std::optional<StereoPair> DatasetSource::next() {
  if (next_index_ >= frame_count()) return std::nullopt;
  const StereoSample& s = (*samples_)[static_cast<size_t>(next_index_)];
  StereoPair pair;
  pair.index = next_index_++;
  pair.timestamp_s = fps_ > 0 ? static_cast<double>(pair.index) / fps_ : 0.0;
  // Into the frame loop's pooled memory when it gave some (a GPU uploads from it directly).
  pair.left = pooled_copy(pair_memory(), s.left);
  pair.right = pooled_copy(pair_memory(), s.right);
  return pair;
}

bool DatasetSource::seek(int64_t index) {
  if (index < 0 || index >= frame_count()) return false;
  next_index_ = index;
  return true;
}

}  // namespace sv
