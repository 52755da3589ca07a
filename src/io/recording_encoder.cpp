#include "src/io/recording_encoder.h"

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "src/core/error.h"
#include "src/io/ffmpeg_video_writer.h"
#include "src/io/png_io.h"

namespace sv {
namespace {

bool ends_with_png(const std::string& path) {
  if (path.size() < 4) return false;
  std::string tail = path.substr(path.size() - 4);
  for (char& ch : tail) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return tail == ".png";
}

// Two images of the same height next to each other.
ImageRgb8 beside(const ImageRgb8& a, const ImageRgb8& b) {
  ImageRgb8 out(a.width() + b.width(), a.height());
  for (int y = 0; y < a.height(); ++y) {
    std::memcpy(out.row(y), a.row(y), sizeof(Rgb8) * a.width());
    std::memcpy(out.row(y) + a.width(), b.row(y), sizeof(Rgb8) * b.width());
  }
  return out;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw RuntimeError("recording: the frame has no " + what);
}

// Every format but the PNG sequence: one image per frame into an FFmpeg video file.
class VideoRecordingEncoder : public RecordingEncoder {
 public:
  VideoRecordingEncoder(const RecordingEncoderSettings& settings, NoticeSink notices)
      : settings_(settings) {
    gray16_ = settings_.format == RecordingFormat::Lossless16;
    if (settings_.codec.empty()) {
      std::string note;
      settings_.codec = default_codec_for(gray16_, &note);
      if (!note.empty()) post_notice(notices, note);
    } else if (!has_video_encoder(settings_.codec)) {
      throw RuntimeError("recording: this FFmpeg build has no video encoder \"" + settings_.codec +
                         "\" (try libx264, mpeg4, mjpeg or ffv1)");
    }
  }

  void write(const RecordingFrame& frame) override {
    if (gray16_) {
      require(!frame.disparity_fixed.empty(), "fixed-point disparity");
      const ImageU16 values = settings_.u16_encoding.encode(frame.disparity_fixed, &clamped_);
      open_for(values.width(), values.height());
      writer_->write(values);
      return;
    }
    const ImageRgb8 image = compose(frame);
    open_for(image.width(), image.height());
    writer_->write(image);
  }

  void finish() override {
    if (writer_) writer_->finish();
  }
  void finish_after_error() noexcept override {
    if (writer_) writer_->finish_after_error();
  }
  int64_t bytes_written() const override { return writer_ ? writer_->bytes_written() : 0; }
  std::string describe() const override {
    if (!writer_) return "";
    const auto dot = settings_.path.rfind('.');
    return settings_.codec + " in " + (dot == std::string::npos ? "?" : settings_.path.substr(dot + 1)) +
           ", " + std::to_string(writer_->encoded_width()) + "x" +
           std::to_string(writer_->encoded_height());
  }
  int stored_width() const override { return writer_ ? writer_->encoded_width() : 0; }
  int stored_height() const override { return writer_ ? writer_->encoded_height() : 0; }
  std::string codec() const override { return settings_.codec; }
  int64_t clamped_pixels() const override { return clamped_; }

 private:
  ImageRgb8 colorized(const RecordingFrame& frame) const {
    require(!frame.disparity.empty(), "disparity");
    return colorize_disparity(frame.disparity, settings_.color_min, settings_.color_max,
                              settings_.colormap);
  }

  ImageRgb8 compose(const RecordingFrame& frame) const {
    switch (settings_.format) {
      case RecordingFormat::Raw:
        require(!frame.left.empty() && frame.left.same_size(frame.right), "stereo pair");
        return beside(frame.left, frame.right);
      case RecordingFormat::SideBySide: {
        require(!frame.left.empty(), "left view");
        const ImageRgb8 disparity = colorized(frame);
        require(disparity.same_size(frame.left), "disparity of the left view's size");
        return beside(frame.left, disparity);
      }
      default:
        return colorized(frame);
    }
  }

  void open_for(int width, int height) {
    if (writer_) return;
    VideoWriterSettings video;
    video.path = settings_.path;
    video.codec = settings_.codec;
    video.width = width;
    video.height = height;
    video.frames_per_second = settings_.frames_per_second;
    video.gray16 = gray16_;
    writer_ = std::make_unique<FfmpegVideoWriter>(video);
  }

  RecordingEncoderSettings settings_;
  bool gray16_ = false;
  std::unique_ptr<FfmpegVideoWriter> writer_;
  int64_t clamped_ = 0;
};

// Lossless16 as one 16-bit PNG per frame: any image tool reads it, and a failure loses at most
// the frame being written (its partial file is removed).
class PngSequenceEncoder : public RecordingEncoder {
 public:
  explicit PngSequenceEncoder(const RecordingEncoderSettings& settings) : settings_(settings) {}

  void write(const RecordingFrame& frame) override {
    require(!frame.disparity_fixed.empty(), "fixed-point disparity");
    const std::string path = png_sequence_frame_path(settings_.path, frames_);
    if (frames_ == 0) {
      const auto folder = std::filesystem::path(path).parent_path();
      std::error_code error;
      if (!folder.empty()) std::filesystem::create_directories(folder, error);
      width_ = frame.disparity_fixed.width();
      height_ = frame.disparity_fixed.height();
    }
    try {
      write_png(path, settings_.u16_encoding.encode(frame.disparity_fixed, &clamped_));
    } catch (const std::exception& e) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
      throw RuntimeError(std::string(e.what()) + " (" + std::strerror(errno) + ")");
    }
    std::error_code error;
    bytes_ += static_cast<int64_t>(std::filesystem::file_size(path, error));
    ++frames_;
  }
  void finish() override {}
  void finish_after_error() noexcept override {}
  int64_t bytes_written() const override { return bytes_; }
  std::string describe() const override {
    return "16-bit PNG sequence " + png_sequence_frame_path(settings_.path, 0) + ", ...";
  }
  int stored_width() const override { return width_; }
  int stored_height() const override { return height_; }
  std::string codec() const override { return "png"; }
  int64_t clamped_pixels() const override { return clamped_; }

 private:
  RecordingEncoderSettings settings_;
  int64_t frames_ = 0;
  int64_t bytes_ = 0;
  int64_t clamped_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace

std::string png_sequence_frame_path(const std::string& path, int64_t n) {
  char number[32];
  std::snprintf(number, sizeof number, "_%06lld", static_cast<long long>(n));
  return path.substr(0, path.size() - 4) + number + path.substr(path.size() - 4);
}

std::unique_ptr<RecordingEncoder> make_recording_encoder(const RecordingEncoderSettings& settings,
                                                         NoticeSink notices) {
  if (settings.format == RecordingFormat::Lossless16 && ends_with_png(settings.path)) {
    return std::make_unique<PngSequenceEncoder>(settings);
  }
  if (ends_with_png(settings.path)) {
    throw RuntimeError("recording: only lossless16 can be written as a PNG sequence; give " +
                       std::string(recording_format_name(settings.format)) +
                       " a video file name (.mp4, .mkv, .avi)");
  }
  return std::make_unique<VideoRecordingEncoder>(settings, std::move(notices));
}

}  // namespace sv
