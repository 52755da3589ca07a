#include "src/io/video_file_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <opencv2/videoio.hpp>

#include "src/core/error.h"
#include "src/io/mat_image.h"

namespace sv {

struct VideoFileReader::Capture {
  cv::VideoCapture capture;
};

namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

void require_readable_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError("cannot open video '" + path + "': no such file");
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError("cannot open video '" + path + "': not a regular file");
  }
  if (!std::ifstream(path, std::ios::binary).good()) {
    throw InputError("cannot open video '" + path + "': permission denied or unreadable");
  }
}

}  // namespace

VideoFileReader::VideoFileReader(const std::string& path)
    : path_(path), capture_(std::make_unique<Capture>()) {
  require_readable_file(path);
  cv::VideoCapture& cap = capture_->capture;
  try {
    // FFmpeg only: other backends would take a lone image or a printf pattern for a "video".
    cap.open(path, cv::CAP_FFMPEG);
  } catch (const cv::Exception& e) {
    throw InputError("cannot open video '" + path + "': " + e.what());
  }
  if (!cap.isOpened()) {
    throw InputError("cannot open video '" + path +
                     "': OpenCV/FFmpeg has no decoder for it (unknown container or codec, or a "
                     "damaged file)");
  }
  const double count = cap.get(cv::CAP_PROP_FRAME_COUNT);
  frame_count_ = count >= 1 ? static_cast<int64_t>(std::llround(count)) : -1;
  const double fps = cap.get(cv::CAP_PROP_FPS);
  fps_ = std::isfinite(fps) && fps > 0 && fps < 1000 ? fps : 0.0;
  pending_ = read();
  if (!pending_) {
    throw InputError("cannot read video '" + path +
                     "': no frame could be decoded (empty, truncated or damaged file)");
  }
  width_ = pending_->image.width();
  height_ = pending_->image.height();
  position_ = 0;
  ended_ = false;
}

VideoFileReader::~VideoFileReader() = default;

std::optional<VideoFileReader::Frame> VideoFileReader::read() {
  if (pending_) {
    std::optional<Frame> frame = std::move(pending_);
    pending_.reset();
    ++position_;
    return frame;
  }
  if (ended_) return std::nullopt;
  cv::Mat mat;
  bool ok = false;
  try {
    ok = capture_->capture.read(mat);
  } catch (const cv::Exception&) {
    ok = false;  // a damaged frame ends the file like its end would
  }
  if (!ok || mat.empty()) {
    ended_ = true;
    return std::nullopt;
  }
  Frame frame;
  frame.image = rgb_image_from_mat(mat);
  if (width_ != 0 && !frame.image.same_size(width_, height_)) {
    throw InputError("video '" + path_ + "' changes frame size at frame " +
                     std::to_string(position_) + ": " + size_text(width_, height_) + " then " +
                     size_text(frame.image.width(), frame.image.height()));
  }
  // Timestamps from the frame index keep playback pacing exact for constant-rate files.
  frame.timestamp_s = fps_ > 0 ? static_cast<double>(position_) / fps_
                               : capture_->capture.get(cv::CAP_PROP_POS_MSEC) / 1000.0;
  ++position_;
  return frame;
}

bool VideoFileReader::seek(int64_t index) {
  if (index < 0 || (frame_count_ > 0 && index >= frame_count_)) return false;
  bool ok = false;
  try {
    ok = capture_->capture.set(cv::CAP_PROP_POS_FRAMES, static_cast<double>(index));
  } catch (const cv::Exception&) {
    ok = false;
  }
  if (!ok) return false;
  pending_.reset();
  position_ = index;
  ended_ = false;
  return true;
}

bool has_video_extension(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  const auto dot = name.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = name.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* known : {"avi", "mp4", "mkv", "mov", "webm", "m4v", "mpg", "mpeg", "wmv", "flv",
                            "ts", "mts", "ogv"}) {
    if (ext == known) return true;
  }
  return false;
}

}  // namespace sv
