#include "src/io/recording_encoder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/io/atomic_file.h"
#include "src/io/ffmpeg_video_writer.h"
#include "src/io/png_io.h"
#include "src/io/recording_sidecar.h"

namespace sv {
namespace {

// `extension` in lower case, with its dot.
bool has_extension(const std::string& path, const char* extension) {
  const size_t n = std::strlen(extension);
  if (path.size() < n) return false;
  std::string tail = path.substr(path.size() - n);
  for (char& ch : tail) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return tail == extension;
}

bool ends_with_png(const std::string& path) { return has_extension(path, ".png"); }

// Two images of the same height next to each other.
template <typename T>
Image<T> beside(const Image<T>& a, const Image<T>& b) {
  Image<T> out(a.width() + b.width(), a.height());
  for (int y = 0; y < a.height(); ++y) {
    std::memcpy(out.row(y), a.row(y), sizeof(T) * a.width());
    std::memcpy(out.row(y) + a.width(), b.row(y), sizeof(T) * b.width());
  }
  return out;
}

// Whether the container FFmpeg picks for `path`'s extension can hold `codec`'s video.
bool container_holds(const std::string& path, const std::string& codec) {
  const AVOutputFormat* format = av_guess_format(nullptr, path.c_str(), nullptr);
  const AVCodec* encoder = avcodec_find_encoder_by_name(codec.c_str());
  return format != nullptr && encoder != nullptr &&
         avformat_query_codec(format, encoder->id, FF_COMPLIANCE_NORMAL) == 1;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw RuntimeError("recording: the frame has no " + what);
}

// Every format but the PNG sequence: one image per frame into an FFmpeg video file.
class VideoRecordingEncoder : public RecordingEncoder {
 public:
  // `gray16`: frames are 16-bit gray (Lossless16's values, or Raw's left16 | right16).
  VideoRecordingEncoder(const RecordingEncoderSettings& settings, NoticeSink notices, bool gray16)
      : settings_(settings), gray16_(gray16) {
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
      const ImageU16 values = gray16_frame(frame);
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
  int64_t frames_committed() const override { return writer_ ? writer_->frames_committed() : 0; }
  bool has_file() const override { return writer_ != nullptr; }
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
  std::string sample_depth() const override { return gray16_ ? "16-bit" : "8-bit"; }

 private:
  ImageU16 gray16_frame(const RecordingFrame& frame) {
    if (settings_.format == RecordingFormat::Raw) {
      require(!frame.left16.empty() && frame.left16.same_size(frame.right16), "16-bit stereo pair");
      return beside(frame.left16, frame.right16);
    }
    require(!frame.disparity_fixed.empty(), "fixed-point disparity");
    return settings_.u16_encoding.encode(frame.disparity_fixed, &clamped_);
  }

  ImageRgb8 colorized(const RecordingFrame& frame) const {
    if (!frame.picture.empty()) return frame.picture;
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
  bool gray16_;
  std::unique_ptr<FfmpegVideoWriter> writer_;
  int64_t clamped_ = 0;
};

// Lossless16 as one 16-bit PNG per frame: any image tool reads it, and a failure loses at most
// the frame being written (each file appears whole or not at all, see write_png).
class PngSequenceEncoder : public RecordingEncoder {
 public:
  explicit PngSequenceEncoder(const RecordingEncoderSettings& settings) : settings_(settings) {}

  void write(const RecordingFrame& frame) override {
    require(!frame.disparity_fixed.empty(), "fixed-point disparity");
    const std::string path = png_sequence_frame_path(settings_.path, frames_);
    if (frames_ == 0) {
      width_ = frame.disparity_fixed.width();
      height_ = frame.disparity_fixed.height();
    }
    write_png(path, settings_.u16_encoding.encode(frame.disparity_fixed, &clamped_));
    std::error_code error;
    bytes_ += static_cast<int64_t>(std::filesystem::file_size(path, error));
    ++frames_;
  }
  int64_t frames_committed() const override { return frames_; }
  bool has_file() const override { return frames_ > 0; }
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
  std::string sample_depth() const override { return "16-bit"; }

 private:
  RecordingEncoderSettings settings_;
  int64_t frames_ = 0;
  int64_t bytes_ = 0;
  int64_t clamped_ = 0;
  int width_ = 0;
  int height_ = 0;
};

// Raw of a float source: each view of each frame as a PFM file (float_pair_frame_path), written
// bit for bit; a failure loses at most the frame being written (its partial files are removed).
class FloatPairSequenceEncoder : public RecordingEncoder {
 public:
  explicit FloatPairSequenceEncoder(std::string path) : path_(std::move(path)) {}

  void write(const RecordingFrame& frame) override {
    require(!frame.leftf.empty() && frame.leftf.same_size(frame.rightf), "float stereo pair");
    if (frames_ == 0) {
      width_ = frame.leftf.width();
      height_ = frame.leftf.height();
    } else if (!frame.leftf.same_size(width_, height_)) {
      throw RuntimeError("recording to " + file() + ": the frame size changed");
    }
    const std::string left = float_pair_frame_path(path_, "left", frames_);
    const std::string right = float_pair_frame_path(path_, "right", frames_);
    const std::string left_bytes = pfm_file_bytes(frame.leftf);
    const std::string right_bytes = pfm_file_bytes(frame.rightf);
    write_file_atomically(left, left_bytes);
    try {
      write_file_atomically(right, right_bytes);
    } catch (...) {
      ::unlink(left.c_str());  // a frame is a pair: half of one is none
      throw;
    }
    bytes_ += static_cast<int64_t>(left_bytes.size() + right_bytes.size());
    ++frames_;
  }
  void finish() override {}
  void finish_after_error() noexcept override {}
  int64_t frames_committed() const override { return frames_; }
  bool has_file() const override { return frames_ > 0; }
  int64_t bytes_written() const override { return bytes_; }
  std::string describe() const override {
    return "float PFM pairs " + float_pair_frame_path(path_, "left", -1) + " | " +
           float_pair_frame_path(path_, "right", -1) + ", " + std::to_string(width_) + "x" +
           std::to_string(height_);
  }
  int stored_width() const override { return width_; }
  int stored_height() const override { return height_; }
  std::string codec() const override { return "pfm"; }
  std::string file() const override { return float_pair_frame_path(path_, "left", -1); }
  std::string sample_depth() const override { return "float"; }
  std::string replay_flags() const override {
    return "--left " + float_pair_frame_path(path_, "left", -1) + " --right " +
           float_pair_frame_path(path_, "right", -1);
  }

 private:
  std::string path_;
  int64_t frames_ = 0;
  int64_t bytes_ = 0;
  int width_ = 0;
  int height_ = 0;
};

// Raw keeps the source's sample depth (make_recording_encoder in the header): the first frame
// picks the encoder, and a later frame of another depth stops the recording.
class RawRecordingEncoder : public RecordingEncoder {
 public:
  RawRecordingEncoder(const RecordingEncoderSettings& settings, NoticeSink notices)
      : settings_(settings), pfm_name_(has_extension(settings.path, ".pfm")) {
    // Made now, on the caller's thread, so its codec notices (no H.264) go where they belong.
    if (!pfm_name_) eight_bit_ = std::make_unique<VideoRecordingEncoder>(settings, std::move(notices), false);
  }

  void write(const RecordingFrame& frame) override {
    const char* depth = !frame.leftf.empty() ? "float" : !frame.left16.empty() ? "16-bit" : "8-bit";
    if (!chosen_) {
      choose(depth);
    } else if (chosen_->sample_depth() != depth) {
      throw RuntimeError("recording to " + file_or_path() + ": the source changed from " +
                         chosen_->sample_depth() + " to " + depth + " samples");
    }
    chosen_->write(frame);
  }
  void finish() override {
    if (chosen_) chosen_->finish();
  }
  void finish_after_error() noexcept override {
    if (chosen_) chosen_->finish_after_error();
  }
  int64_t frames_committed() const override { return chosen_ ? chosen_->frames_committed() : 0; }
  bool has_file() const override { return chosen_ && chosen_->has_file(); }
  int64_t bytes_written() const override { return chosen_ ? chosen_->bytes_written() : 0; }
  std::string describe() const override { return chosen_ ? chosen_->describe() : ""; }
  int stored_width() const override { return chosen_ ? chosen_->stored_width() : 0; }
  int stored_height() const override { return chosen_ ? chosen_->stored_height() : 0; }
  std::string codec() const override {
    if (chosen_) return chosen_->codec();
    return eight_bit_ ? eight_bit_->codec() : "pfm";
  }
  std::string file() const override {
    if (!chosen_) return "";
    return chosen_->file().empty() ? path_ : chosen_->file();
  }
  std::string sample_depth() const override { return chosen_ ? chosen_->sample_depth() : "8-bit"; }
  std::string replay_flags() const override {
    if (!chosen_) return "";
    return chosen_->replay_flags().empty() ? "--sbs " + file() : chosen_->replay_flags();
  }

 private:
  std::string file_or_path() const { return chosen_ ? file() : settings_.path; }

  void choose(const std::string& depth) {
    path_ = settings_.path;
    if (depth == "float") {
      chosen_ = std::make_unique<FloatPairSequenceEncoder>(settings_.path);
      return;
    }
    if (pfm_name_) {
      throw RuntimeError("recording to " + settings_.path + ": a .pfm name holds only the raw pairs "
                         "of float sources; give this " + depth + " source a video file name "
                         "(.mkv, .mp4, .avi)");
    }
    if (depth == "8-bit") {
      chosen_ = std::move(eight_bit_);
      return;
    }
    // 16-bit: FFV1 keeps every value; MP4 and MOV cannot hold it, so those names become .mkv.
    RecordingEncoderSettings deep = settings_;
    if (deep.codec.empty()) deep.codec = default_codec_for(true);
    if (!container_holds(deep.path, deep.codec)) {
      deep.path = std::filesystem::path(deep.path).replace_extension(".mkv").string();
    }
    path_ = deep.path;
    chosen_ = std::make_unique<VideoRecordingEncoder>(deep, NoticeSink{}, true);
  }

  RecordingEncoderSettings settings_;
  bool pfm_name_;
  std::string path_;  // the video file actually written
  std::unique_ptr<RecordingEncoder> eight_bit_;
  std::unique_ptr<RecordingEncoder> chosen_;
};

}  // namespace

std::string float_pair_frame_path(const std::string& path, const std::string& view, int64_t n) {
  std::filesystem::path stem(path);
  stem.replace_extension();
  if (n < 0) return stem.string() + "_" + view + "_%06d.pfm";
  char number[32];
  std::snprintf(number, sizeof number, "_%06lld", static_cast<long long>(n));
  return stem.string() + "_" + view + number + ".pfm";
}

std::string png_sequence_frame_path(const std::string& path, int64_t n) {
  char number[32];
  std::snprintf(number, sizeof number, "_%06lld", static_cast<long long>(n));
  return path.substr(0, path.size() - 4) + number + path.substr(path.size() - 4);
}

namespace {

// Creates the folder `path` is in, with its parents.
void create_parent_folders(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    throw RuntimeError("recording to " + path + ": cannot create the folder " + folder.string() +
                       ": " + error.message());
  }
}

// Whether `path` can be created or written, found by doing it (access() would not see a
// read-only file system, or a name taken by a folder); a file made for the test is removed.
void require_writable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(path.c_str());
    return;
  }
  const int created_error = errno;
  if (created_error == EEXIST) {
    const int existing = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (existing >= 0) {
      ::close(existing);
      return;
    }
    throw RuntimeError("cannot record to " + path + ": " + std::strerror(errno));
  }
  throw RuntimeError("cannot record to " + path + ": " + std::strerror(created_error));
}

void check_video(const RecordingEncoderSettings& settings, bool gray16) {
  VideoWriterSettings video;
  video.path = settings.path;
  video.codec = settings.codec.empty() ? default_codec_for(gray16) : settings.codec;
  video.frames_per_second = settings.frames_per_second;
  video.gray16 = gray16;
  const bool known_container = av_guess_format(nullptr, settings.path.c_str(), nullptr) != nullptr;
  if (settings.format == RecordingFormat::Lossless16 && settings.codec.empty() && known_container &&
      !container_holds(settings.path, video.codec)) {
    throw RuntimeError("recording to " + settings.path + ": lossless16 is stored as FFV1, which " +
                       "this container cannot hold; name the file .mkv (or .png for a 16-bit PNG " +
                       "sequence)");
  }
  check_video_writer_settings(video);
}

}  // namespace

void check_recording_destination(const RecordingEncoderSettings& settings) {
  const bool png = ends_with_png(settings.path);
  const bool pfm = has_extension(settings.path, ".pfm");
  if (png && settings.format != RecordingFormat::Lossless16) {
    throw RuntimeError("recording: only lossless16 can be written as a PNG sequence; give " +
                       std::string(recording_format_name(settings.format)) +
                       " a video file name (.mp4, .mkv, .avi)");
  }
  if (pfm && settings.format != RecordingFormat::Raw) {
    throw RuntimeError("recording: a .pfm name holds only raw recordings of float sources; give " +
                       std::string(recording_format_name(settings.format)) +
                       " a video file name (.mp4, .mkv, .avi)");
  }
  // A raw recording's depth (and so its codec) is known only at its first frame; its 8-bit
  // video is checked here, a 16-bit source's FFV1 in Matroska always works.
  if (!png && !pfm) check_video(settings, settings.format == RecordingFormat::Lossless16);
  create_parent_folders(settings.path);
  if (png || pfm) {
    require_writable(png ? png_sequence_frame_path(settings.path, 0)
                         : float_pair_frame_path(settings.path, "left", 0));
  } else {
    require_writable(settings.path);
  }
  require_writable(sidecar_path_for(settings.path));
}

std::unique_ptr<RecordingEncoder> make_recording_encoder(const RecordingEncoderSettings& settings,
                                                         NoticeSink notices) {
  check_recording_destination(settings);
  if (settings.format == RecordingFormat::Lossless16 && ends_with_png(settings.path)) {
    return std::make_unique<PngSequenceEncoder>(settings);
  }
  if (settings.format == RecordingFormat::Raw) {
    return std::make_unique<RawRecordingEncoder>(settings, std::move(notices));
  }
  return std::make_unique<VideoRecordingEncoder>(settings, std::move(notices),
                                                 settings.format == RecordingFormat::Lossless16);
}

}  // namespace sv
