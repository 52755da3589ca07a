#include "src/io/ffmpeg_video_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include "src/core/error.h"
#include "src/io/ffmpeg_log.h"

namespace sv {
namespace {

std::string av_error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  std::string message = text;
  // The two ways a disk refuses more data; the user should know it is not the codec's fault.
  if (code == AVERROR(ENOSPC) || code == AVERROR(EFBIG) || code == AVERROR(EDQUOT)) {
    message += " (the disk is full or a file size limit was reached)";
  }
  return message;
}

bool is_lossless_codec(AVCodecID id) {
  return id == AV_CODEC_ID_FFV1 || id == AV_CODEC_ID_HUFFYUV || id == AV_CODEC_ID_FFVHUFF ||
         id == AV_CODEC_ID_UTVIDEO || id == AV_CODEC_ID_PNG || id == AV_CODEC_ID_RAWVIDEO;
}

// Lossy codecs get 4:2:0, because that is what every player decodes: the first 4:2:0 format in
// the codec's own order, which is limited-range yuv420p for most and full-range yuvj420p for
// MJPEG (it refuses yuv420p). Lossless ones get the format FFmpeg rates best for the input (RGB
// stays exact).
AVPixelFormat choose_pixel_format(const AVCodec* codec, bool gray16) {
  const AVPixelFormat input = gray16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_RGB24;
  if (!codec->pix_fmts) return input;
  for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f) {
    if (*f == input) return input;
  }
  if (gray16) return AV_PIX_FMT_NONE;  // anything else would not decode back exactly
  if (!is_lossless_codec(codec->id)) {
    for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f) {
      if (*f == AV_PIX_FMT_YUV420P || *f == AV_PIX_FMT_YUVJ420P) return *f;
    }
  }
  return avcodec_find_best_pix_fmt_of_list(codec->pix_fmts, input, 0, nullptr);
}

struct FormatContextDeleter {
  void operator()(AVFormatContext* format) const {
    if (format->pb) avio_closep(&format->pb);
    avformat_free_context(format);
  }
};
struct CodecContextDeleter {
  void operator()(AVCodecContext* codec) const { avcodec_free_context(&codec); }
};
using FormatContextPtr = std::unique_ptr<AVFormatContext, FormatContextDeleter>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;

std::string where(const VideoWriterSettings& settings) {
  return "recording to " + settings.path + ": ";
}

FormatContextPtr make_format_context(const VideoWriterSettings& settings) {
  AVFormatContext* format = nullptr;
  if (avformat_alloc_output_context2(&format, nullptr, nullptr, settings.path.c_str()) < 0 ||
      !format) {
    throw RuntimeError(where(settings) +
                       "FFmpeg knows no container for this file name's extension "
                       "(use .mp4, .mkv, .avi, .mov, ...)");
  }
  return FormatContextPtr(format);
}

const AVCodec* find_encoder(const VideoWriterSettings& settings, const AVOutputFormat* container) {
  const AVCodec* codec = avcodec_find_encoder_by_name(settings.codec.c_str());
  if (!codec || codec->type != AVMEDIA_TYPE_VIDEO) {
    throw RuntimeError(where(settings) + "this FFmpeg build has no video encoder \"" +
                       settings.codec + "\" (try libx264, mpeg4, mjpeg or ffv1)");
  }
  if (avformat_query_codec(container, codec->id, FF_COMPLIANCE_NORMAL) != 1) {
    throw RuntimeError(where(settings) + "the " + container->name + " container cannot hold " +
                       settings.codec + " video (pick another codec or file extension)");
  }
  return codec;
}

// The encoder configured for frames of width x height and opened. No B-frames and no look-ahead
// in any encoder: packets then come out at once and in display order, so each frame can be
// committed to the file as it is written (see the class comment).
CodecContextPtr open_encoder(const AVCodec* codec, const VideoWriterSettings& settings,
                             const AVOutputFormat* container, int width, int height) {
  const AVPixelFormat pixel_format = choose_pixel_format(codec, settings.gray16);
  if (pixel_format == AV_PIX_FMT_NONE) {
    throw RuntimeError(where(settings) + settings.codec +
                       " cannot store 16-bit gray frames (use ffv1)");
  }
  const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(pixel_format);
  const bool subsampled = descriptor->log2_chroma_w > 0 || descriptor->log2_chroma_h > 0;

  CodecContextPtr c(avcodec_alloc_context3(codec));
  if (!c) throw RuntimeError(where(settings) + "out of memory");
  c->width = subsampled ? (width + 1) / 2 * 2 : width;
  c->height = subsampled ? (height + 1) / 2 * 2 : height;
  c->pix_fmt = pixel_format;
  if (pixel_format == AV_PIX_FMT_YUVJ420P) c->color_range = AVCOL_RANGE_JPEG;
  const double fps = settings.frames_per_second > 0 ? settings.frames_per_second : 30.0;
  const AVRational rate = av_d2q(fps, 100000);
  c->framerate = rate;
  c->time_base = av_inv_q(rate);
  // A key frame a second keeps the file seekable.
  c->gop_size = std::max(1, static_cast<int>(std::lround(fps)));
  c->max_b_frames = 0;
  if (container->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (settings.codec == "libx264" || settings.codec == "libx265") {
    av_opt_set(c->priv_data, "preset", "veryfast", 0);
    av_opt_set(c->priv_data, "tune", "zerolatency", 0);  // no look-ahead, no frame delay
    av_opt_set(c->priv_data, "crf", "16", 0);            // visually lossless on colormaps
    if (settings.codec == "libx265") av_opt_set(c->priv_data, "x265-params", "log-level=error", 0);
  } else if (settings.codec.rfind("libvpx", 0) == 0 || settings.codec == "libaom-av1") {
    av_opt_set(c->priv_data, "lag-in-frames", "0", 0);  // no look-ahead, no frame delay
  } else if (settings.codec == "ffv1") {
    av_opt_set(c->priv_data, "slicecrc", "1", 0);  // damage is detected, not decoded
    c->level = 3;
  } else if (codec->id == AV_CODEC_ID_MPEG4 || codec->id == AV_CODEC_ID_MJPEG) {
    c->qmin = 2;
    c->qmax = 4;
  }
  if (int e = avcodec_open2(c.get(), codec, nullptr); e < 0) {
    throw RuntimeError(where(settings) + settings.codec + " refused " + std::to_string(c->width) +
                       "x" + std::to_string(c->height) + " " + descriptor->name + ": " +
                       av_error_text(e));
  }
  return c;
}

// The size check_video_writer_settings opens an encoder at before the frames' size is known.
constexpr int kProbeWidth = 64;
constexpr int kProbeHeight = 48;

}  // namespace

struct FfmpegVideoWriter::Context {
  FormatContextPtr format;
  CodecContextPtr codec;
  AVStream* stream = nullptr;
  AVFrame* input = nullptr;    // the caller's pixels, padded to the encoded size
  AVFrame* encoded = nullptr;  // in the codec's pixel format (== input when no conversion)
  SwsContext* converter = nullptr;
  AVPacket* packet = nullptr;
  bool header_written = false;
  // The muxer can be told to close its fragment or cluster after a packet (AVFMT_ALLOW_FLUSH);
  // others (AVI) write each packet through at once.
  bool flushes_packets = false;
  int64_t bytes = 0;

  ~Context() {
    sws_freeContext(converter);
    if (encoded != input) av_frame_free(&encoded);
    av_frame_free(&input);
    av_packet_free(&packet);
  }
};

bool has_video_encoder(const std::string& name) {
  const AVCodec* codec = avcodec_find_encoder_by_name(name.c_str());
  return codec && codec->type == AVMEDIA_TYPE_VIDEO;
}

std::string default_codec_for(bool gray16, std::string* note) {
  if (gray16) return "ffv1";
  if (has_video_encoder("libx264")) return "libx264";
  if (note)
    *note = "this FFmpeg build has no H.264 encoder (libx264); recording MPEG-4 Part 2 instead";
  return "mpeg4";
}

void check_video_writer_settings(const VideoWriterSettings& settings) {
  silence_ffmpeg_log();
  const FormatContextPtr format = make_format_context(settings);
  const AVCodec* codec = find_encoder(settings, format->oformat);
  const bool sized = settings.width > 0 && settings.height > 0;
  open_encoder(codec, settings, format->oformat, sized ? settings.width : kProbeWidth,
               sized ? settings.height : kProbeHeight);
}

FfmpegVideoWriter::FfmpegVideoWriter(const VideoWriterSettings& settings)
    : settings_(settings), context_(std::make_unique<Context>()) {
  silence_ffmpeg_log();  // every failure comes back as an exception with a message
  const std::string& path = settings_.path;
  if (settings_.width < 1 || settings_.height < 1)
    throw RuntimeError(where(settings_) + "empty frame size");
  Context& c = *context_;

  c.format = make_format_context(settings_);
  const AVCodec* codec = find_encoder(settings_, c.format->oformat);
  c.codec = open_encoder(codec, settings_, c.format->oformat, settings_.width, settings_.height);
  c.flushes_packets = (c.format->oformat->flags & AVFMT_ALLOW_FLUSH) != 0;
  c.packet = av_packet_alloc();
  if (!c.packet) throw RuntimeError(where(settings_) + "out of memory");

  c.stream = avformat_new_stream(c.format.get(), nullptr);
  if (!c.stream) throw RuntimeError(where(settings_) + "out of memory");
  c.stream->time_base = c.codec->time_base;
  c.stream->avg_frame_rate = c.codec->framerate;
  avcodec_parameters_from_context(c.stream->codecpar, c.codec.get());

  c.input = av_frame_alloc();
  if (!c.input) throw RuntimeError(where(settings_) + "out of memory");
  c.input->format = settings_.gray16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_RGB24;
  c.input->width = c.codec->width;
  c.input->height = c.codec->height;
  if (av_frame_get_buffer(c.input, 0) < 0) throw RuntimeError(where(settings_) + "out of memory");
  const AVPixelFormat pixel_format = c.codec->pix_fmt;
  if (pixel_format == c.input->format) {
    c.encoded = c.input;
  } else {
    c.encoded = av_frame_alloc();
    if (!c.encoded) throw RuntimeError(where(settings_) + "out of memory");
    c.encoded->format = pixel_format;
    c.encoded->width = c.codec->width;
    c.encoded->height = c.codec->height;
    c.encoded->color_range = c.codec->color_range;
    if (av_frame_get_buffer(c.encoded, 0) < 0)
      throw RuntimeError(where(settings_) + "out of memory");
    c.converter =
        sws_getContext(c.codec->width, c.codec->height, static_cast<AVPixelFormat>(c.input->format),
                       c.codec->width, c.codec->height, pixel_format,
                       SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
    if (!c.converter) {
      throw RuntimeError(where(settings_) + "no conversion to " +
                         av_get_pix_fmt_name(pixel_format));
    }
  }

  if (int e = avio_open(&c.format->pb, path.c_str(), AVIO_FLAG_WRITE); e < 0) {
    throw RuntimeError("cannot record to " + path + ": " + av_error_text(e));
  }
  AVDictionary* options = nullptr;
  const std::string container = c.format->oformat->name;
  if (container.find("mp4") != std::string::npos || container.find("mov") != std::string::npos) {
    // Fragmented, with a fragment cut only where commit_packet asks: after every frame.
    av_dict_set(&options, "movflags", "empty_moov+default_base_moof+frag_custom", 0);
  }
  const int e = avformat_write_header(c.format.get(), &options);
  av_dict_free(&options);
  if (e >= 0) avio_flush(c.format->pb);
  const int header_error = e < 0 ? e : c.format->pb->error;
  if (header_error < 0) {
    // No recording exists without its header: the partial file goes.
    c.format.reset();
    ::unlink(path.c_str());
    throw RuntimeError(where(settings_) +
                       "cannot write the file header: " + av_error_text(header_error));
  }
  c.header_written = true;
  bytes_committed_ = c.bytes = avio_tell(c.format->pb);
}

FfmpegVideoWriter::~FfmpegVideoWriter() {
  if (!finished_) finish_after_error();
}

int FfmpegVideoWriter::encoded_width() const { return context_->codec->width; }
int FfmpegVideoWriter::encoded_height() const { return context_->codec->height; }
int64_t FfmpegVideoWriter::bytes_written() const { return context_->bytes; }

void FfmpegVideoWriter::write(const ImageRgb8& image) {
  if (settings_.gray16) throw RuntimeError("recording to " + path() + ": expected a 16-bit frame");
  if (!image.same_size(settings_.width, settings_.height)) {
    throw RuntimeError("recording to " + path() + ": a frame of another size (" +
                       std::to_string(image.width()) + "x" + std::to_string(image.height()) + ")");
  }
  AVFrame* input = context_->input;
  if (av_frame_make_writable(input) < 0) throw RuntimeError("recording: out of memory");
  for (int y = 0; y < input->height; ++y) {
    const Rgb8* src = image.row(std::min(y, image.height() - 1));
    uint8_t* dst = input->data[0] + static_cast<ptrdiff_t>(y) * input->linesize[0];
    std::memcpy(dst, src, sizeof(Rgb8) * image.width());
    if (input->width > image.width())
      std::memcpy(dst + 3 * image.width(), dst + 3 * (image.width() - 1), 3);
  }
  encode_input_frame();
}

void FfmpegVideoWriter::write(const ImageU16& image) {
  if (!settings_.gray16) throw RuntimeError("recording to " + path() + ": expected a colour frame");
  if (!image.same_size(settings_.width, settings_.height)) {
    throw RuntimeError("recording to " + path() + ": a frame of another size");
  }
  AVFrame* input = context_->input;
  if (av_frame_make_writable(input) < 0) throw RuntimeError("recording: out of memory");
  for (int y = 0; y < image.height(); ++y) {
    uint8_t* dst = input->data[0] + static_cast<ptrdiff_t>(y) * input->linesize[0];
    const uint16_t* src = image.row(y);
    for (int x = 0; x < image.width(); ++x) {  // gray16le, whatever the host's byte order
      dst[2 * x] = static_cast<uint8_t>(src[x] & 0xff);
      dst[2 * x + 1] = static_cast<uint8_t>(src[x] >> 8);
    }
  }
  encode_input_frame();
}

void FfmpegVideoWriter::encode_input_frame() {
  Context& c = *context_;
  if (finished_ || write_failed_) {
    throw RuntimeError("recording to " + path() + ": the file is already closed");
  }
  if (c.converter) {
    if (av_frame_make_writable(c.encoded) < 0) throw RuntimeError("recording: out of memory");
    sws_scale(c.converter, c.input->data, c.input->linesize, 0, c.input->height, c.encoded->data,
              c.encoded->linesize);
  }
  c.encoded->pts = frames_written_;
  if (int e = avcodec_send_frame(c.codec.get(), c.encoded); e < 0) {
    throw RuntimeError("recording to " + path() +
                       ": the encoder refused a frame: " + av_error_text(e));
  }
  ++frames_written_;
  drain_packets();
}

void FfmpegVideoWriter::drain_packets() {
  Context& c = *context_;
  for (;;) {
    const int e = avcodec_receive_packet(c.codec.get(), c.packet);
    if (e == AVERROR(EAGAIN) || e == AVERROR_EOF) break;
    if (e < 0)
      throw RuntimeError("recording to " + path() + ": encoding failed: " + av_error_text(e));
    commit_packet();
  }
}

// Writes the packet, closes the fragment or cluster around it and pushes the bytes to the file,
// so a full disk shows at this frame and everything before it is whole on disk.
void FfmpegVideoWriter::commit_packet() {
  Context& c = *context_;
  if (c.packet->duration <= 0) c.packet->duration = 1;  // one frame, in the codec's time base
  av_packet_rescale_ts(c.packet, c.codec->time_base, c.stream->time_base);
  c.packet->stream_index = c.stream->index;
  const int written = av_write_frame(c.format.get(), c.packet);
  av_packet_unref(c.packet);
  if (written < 0) fail_writing("writing failed", written);
  if (c.flushes_packets) {
    if (const int e = av_write_frame(c.format.get(), nullptr); e < 0)
      fail_writing("writing failed", e);
  }
  avio_flush(c.format->pb);
  if (c.format->pb->error < 0) fail_writing("writing failed", c.format->pb->error);
  ++frames_committed_;
  bytes_committed_ = c.bytes = avio_tell(c.format->pb);
}

void FfmpegVideoWriter::fail_writing(const std::string& what, int code) {
  write_failed_ = true;
  throw RuntimeError("recording to " + path() + ": " + what + ": " + av_error_text(code));
}

void FfmpegVideoWriter::cut_back_to_committed() noexcept {
  Context& c = *context_;
  if (c.format && c.format->pb) avio_closep(&c.format->pb);
  if (c.header_written && ::truncate(path().c_str(), static_cast<off_t>(bytes_committed_)) == 0) {
    c.bytes = bytes_committed_;
  }
}

void FfmpegVideoWriter::finish() {
  if (finished_) return;
  if (write_failed_) {
    finish_after_error();
    throw RuntimeError("recording to " + path() + ": the file is already closed");
  }
  Context& c = *context_;
  try {
    avcodec_send_frame(c.codec.get(), nullptr);
    drain_packets();
    if (int e = av_write_trailer(c.format.get()); e < 0)
      fail_writing("finishing the file failed", e);
    avio_flush(c.format->pb);
    if (c.format->pb->error < 0) fail_writing("finishing the file failed", c.format->pb->error);
    c.bytes = std::max<int64_t>(c.bytes, avio_size(c.format->pb));
  } catch (...) {
    finished_ = true;
    cut_back_to_committed();
    throw;
  }
  finished_ = true;
  if (const int closed = avio_closep(&c.format->pb); closed < 0) {
    cut_back_to_committed();
    throw RuntimeError("recording to " + path() +
                       ": finishing the file failed: " + av_error_text(closed));
  }
}

void FfmpegVideoWriter::finish_after_error() noexcept {
  if (finished_) return;
  finished_ = true;
  Context& c = *context_;
  if (!c.header_written || !c.format || !c.format->pb) return;
  if (!write_failed_) {
    // The disk took everything so far (a frame was refused, not a write): finish the container
    // so it keeps its index, unless that fails too.
    try {
      avcodec_send_frame(c.codec.get(), nullptr);
      drain_packets();
      if (av_write_trailer(c.format.get()) >= 0) {
        avio_flush(c.format->pb);
        const bool flushed = c.format->pb->error >= 0;
        c.bytes = std::max<int64_t>(c.bytes, avio_size(c.format->pb));
        if (avio_closep(&c.format->pb) >= 0 && flushed) return;
      }
    } catch (...) {  // a refused flush: the file is cut back below like after a failed write
    }
  }
  cut_back_to_committed();
}

}  // namespace sv
