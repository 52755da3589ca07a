#include "src/io/video_file_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <opencv2/videoio.hpp>

#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/io/mat_image.h"
#if STEREOVIEW_HAS_RECORDING
#include "src/io/ffmpeg_log.h"
#include "src/io/ffmpeg_video_reader.h"
#endif

namespace sv {

// OpenCV for 8-bit video; FFmpeg directly for gray of more than 8 bits.
struct VideoFileReader::Capture {
  cv::VideoCapture capture;
#if STEREOVIEW_HAS_RECORDING
  std::unique_ptr<FfmpegVideoReader> full_depth;
#endif
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
#if STEREOVIEW_HAS_RECORDING
  silence_ffmpeg_log();  // OpenCV's FFmpeg backend logs decoding errors on stderr
#endif
  if (open_full_depth()) return;
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

#if STEREOVIEW_HAS_RECORDING

bool VideoFileReader::open_full_depth() {
  // A file FFmpeg cannot open or decode goes on to OpenCV, whose message says why.
  const std::optional<int> bits = video_gray_bits(path_);
  if (!bits || *bits <= 8) return false;
  try {
    capture_->full_depth = std::make_unique<FfmpegVideoReader>(path_, FfmpegVideoReader::Pixels::Gray16);
  } catch (const std::runtime_error& e) {
    throw InputError("cannot read " + std::to_string(*bits) + "-bit video '" + path_ + "': " + e.what());
  }
  gray_bits_ = *bits;
  frame_count_ = capture_->full_depth->frame_count();
  fps_ = capture_->full_depth->frames_per_second();
  pending_ = read_full_depth();
  if (!pending_) {
    throw InputError("cannot read " + std::to_string(gray_bits_) + "-bit video '" + path_ +
                     "' (" + capture_->full_depth->codec_name() + ", " +
                     capture_->full_depth->pixel_format_name() +
                     "): no frame could be decoded (empty, truncated or damaged file)");
  }
  width_ = pending_->image.width();
  height_ = pending_->image.height();
  position_ = 0;
  ended_ = false;
  return true;
}

std::optional<VideoFileReader::Frame> VideoFileReader::read_full_depth(BlockPool* pool) {
  std::optional<FfmpegVideoReader::Frame> decoded;
  try {
    decoded = capture_->full_depth->read(pool);
  } catch (const std::runtime_error&) {
    decoded.reset();  // a frame that cannot be converted ends the file like a damaged one
  }
  if (!decoded) {
    ended_ = true;
    return std::nullopt;
  }
  Frame frame;
  frame.gray16 = std::move(decoded->gray16);
  frame.image = to_rgb(eight_bit_view(frame.gray16));
  if (width_ != 0 && !frame.gray16.same_size(width_, height_)) {
    throw InputError("video '" + path_ + "' changes frame size at frame " +
                     std::to_string(position_) + ": " + size_text(width_, height_) + " then " +
                     size_text(frame.gray16.width(), frame.gray16.height()));
  }
  frame.timestamp_s = fps_ > 0 ? static_cast<double>(position_) / fps_ : decoded->timestamp_s;
  ++position_;
  return frame;
}

bool VideoFileReader::seek_full_depth(int64_t index) {
  // Lossless intra-only files (FFV1) could seek by time stamp, but decoding from the start is
  // exact for every codec and every container.
  std::unique_ptr<FfmpegVideoReader> reopened;
  try {
    reopened = std::make_unique<FfmpegVideoReader>(path_, FfmpegVideoReader::Pixels::Gray16);
    for (int64_t i = 0; i < index; ++i) {
      if (!reopened->read()) return false;
    }
  } catch (const std::runtime_error&) {
    return false;
  }
  capture_->full_depth = std::move(reopened);
  pending_.reset();
  position_ = index;
  ended_ = false;
  return true;
}

#else

bool VideoFileReader::open_full_depth() { return false; }
std::optional<VideoFileReader::Frame> VideoFileReader::read_full_depth(BlockPool*) {
  return std::nullopt;
}
bool VideoFileReader::seek_full_depth(int64_t) { return false; }

#endif

std::optional<VideoFileReader::Frame> VideoFileReader::read(BlockPool* pool) {
  if (pending_) {
    std::optional<Frame> frame = std::move(pending_);
    pending_.reset();
    ++position_;
    return frame;
  }
  if (ended_) return std::nullopt;
  if (high_bit_depth()) return read_full_depth(pool);
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
  frame.image = rgb_image_from_mat(mat, pool);
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
  if (high_bit_depth()) return seek_full_depth(index);
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
