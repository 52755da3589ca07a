#include "src/io/video_pair_source.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/core/error.h"
#include "src/io/video_file_reader.h"

namespace sv {
namespace {

std::string size_text(const VideoFileReader& v) {
  return std::to_string(v.width()) + "x" + std::to_string(v.height());
}

std::string length_text(const VideoFileReader& v, int64_t read) {
  const int64_t frames = v.frame_count() > 0 && !v.ended_early() ? v.frame_count() : read;
  return std::to_string(frames) + " frames";
}

std::string rate_text(double fps) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", fps);
  return text;
}

}  // namespace

VideoPairSource::VideoPairSource(const std::string& left_path, const std::string& right_path,
                                 NoticeSink notices)
    : left_(std::make_unique<VideoFileReader>(left_path)),
      right_(std::make_unique<VideoFileReader>(right_path)),
      notices_(std::move(notices)) {
  if (left_->high_bit_depth() != right_->high_bit_depth()) {
    const auto depth = [](const VideoFileReader& v) {
      return v.high_bit_depth() ? std::to_string(v.gray_bits()) + "-bit gray" : std::string("8-bit");
    };
    throw InputError("left video '" + left_path + "' is " + depth(*left_) + " but right video '" +
                     right_path + "' is " + depth(*right_) +
                     ": the two views must have the same sample depth");
  }
  if (left_->width() != right_->width() || left_->height() != right_->height()) {
    throw InputError("left video '" + left_path + "' is " + size_text(*left_) +
                     " but right video '" + right_path + "' is " + size_text(*right_) +
                     ": the two views must have the same size");
  }
  const double left_fps = left_->frames_per_second(), right_fps = right_->frames_per_second();
  if (left_fps > 0 && right_fps > 0 &&
      std::fabs(left_fps - right_fps) > 1e-3 * std::max(left_fps, right_fps)) {
    post_notice(notices_, "left video runs at " + rate_text(left_fps) + " fps, right video at " +
                              rate_text(right_fps) +
                              " fps: frames are paired by index (frame n "
                              "with frame n), not by time");
  }
  if (left_->frame_count() > 0 && right_->frame_count() > 0 &&
      left_->frame_count() != right_->frame_count()) {
    post_notice(notices_, "left video has " + std::to_string(left_->frame_count()) +
                              " frames, right video " + std::to_string(right_->frame_count()) +
                              ": stopping at the shorter, after " +
                              std::to_string(frame_count()) + " pairs");
  }
}

VideoPairSource::~VideoPairSource() = default;

std::string VideoPairSource::describe() const {
  const std::string depth =
      left_->high_bit_depth() ? " " + std::to_string(left_->gray_bits()) + "-bit" : "";
  return "videos " + left_->path() + " | " + right_->path() + " " + size_text(*left_) + depth;
}

int64_t VideoPairSource::frame_count() const {
  if (left_->frame_count() < 0 || right_->frame_count() < 0) return -1;
  return std::min(left_->frame_count(), right_->frame_count());
}

double VideoPairSource::frames_per_second() const {
  return left_->frames_per_second() > 0 ? left_->frames_per_second() : right_->frames_per_second();
}

std::optional<StereoPair> VideoPairSource::next() {
  const int64_t index = left_->position();
  auto left = left_->read(pair_memory());
  auto right = right_->read(pair_memory());
  if (left && right) {
    StereoPair pair;
    pair.index = index;
    pair.timestamp_s = left->timestamp_s;
    pair.left = std::move(left->image);
    pair.right = std::move(right->image);
    // High bit depth videos keep their values, as 16-bit image files do (frame_source.h).
    pair.left16 = std::move(left->gray16);
    pair.right16 = std::move(right->gray16);
    return pair;
  }
  if (!end_reported_) {
    end_reported_ = true;
    for (const VideoFileReader* v : {left_.get(), right_.get()}) {
      if (v->ended_early()) {
        post_notice(notices_, "video '" + v->path() + "' ended after " +
                                  std::to_string(v->position()) + " of the " +
                                  std::to_string(v->frame_count()) +
                                  " frames it announces (truncated or damaged file)");
      }
    }
    if (static_cast<bool>(left) != static_cast<bool>(right)) {
      const VideoFileReader& shorter = left ? *right_ : *left_;
      const VideoFileReader& longer = left ? *left_ : *right_;
      post_notice(notices_, "video '" + shorter.path() + "' ended after " +
                                length_text(shorter, index) + ", before '" + longer.path() +
                                "': stopping at the shorter, after " + std::to_string(index) +
                                " pairs");
    }
  }
  return std::nullopt;
}

bool VideoPairSource::seek(int64_t index) {
  if (index < 0 || (frame_count() > 0 && index >= frame_count())) return false;
  if (!left_->seek(index) || !right_->seek(index)) return false;
  return true;
}

}  // namespace sv
