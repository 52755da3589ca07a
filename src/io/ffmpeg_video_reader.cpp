#include "src/io/ffmpeg_video_reader.h"

#include <cmath>
#include <cstring>
#include <filesystem>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include "src/core/block_pool.h"
#include "src/core/error.h"
#include "src/core/input_file.h"
#include "src/io/ffmpeg_log.h"

namespace sv {

struct FfmpegVideoReader::Context {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  int stream_index = -1;
  AVPacket* packet = nullptr;
  AVFrame* decoded = nullptr;
  SwsContext* converter = nullptr;

  ~Context() {
    sws_freeContext(converter);
    av_frame_free(&decoded);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    avformat_close_input(&format);
  }
};

FfmpegVideoReader::FfmpegVideoReader(const std::string& path, Pixels pixels)
    : path_(path), pixels_(pixels), context_(std::make_unique<Context>()) {
  silence_ffmpeg_log();                 // every failure comes back as an exception or a notice
  require_regular_file(path, "video");  // a FIFO or device would block or never end
  Context& c = *context_;
  if (avformat_open_input(&c.format, path.c_str(), nullptr, nullptr) < 0) {
    throw InputError("cannot open video '" + path + "' (missing, unreadable or not a video)");
  }
  if (avformat_find_stream_info(c.format, nullptr) < 0) {
    throw InputError("cannot read the streams of video '" + path + "'");
  }
  const AVCodec* decoder = nullptr;
  c.stream_index = av_find_best_stream(c.format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (c.stream_index < 0 || !decoder) throw InputError("no decodable video stream in '" + path + "'");
  c.codec = avcodec_alloc_context3(decoder);
  c.packet = av_packet_alloc();
  c.decoded = av_frame_alloc();
  if (!c.codec || !c.packet || !c.decoded) throw RuntimeError("decoding '" + path + "': out of memory");
  avcodec_parameters_to_context(c.codec, c.format->streams[c.stream_index]->codecpar);
  if (avcodec_open2(c.codec, decoder, nullptr) < 0) {
    throw InputError("cannot open the " + std::string(decoder->name) + " decoder for '" + path + "'");
  }
}

FfmpegVideoReader::~FfmpegVideoReader() = default;

int FfmpegVideoReader::width() const { return context_->codec->width; }
int FfmpegVideoReader::height() const { return context_->codec->height; }
std::string FfmpegVideoReader::codec_name() const { return context_->codec->codec->name; }

namespace {

// Bits per gray sample of a pixel format, 0 for colour, palette and Bayer formats.
int gray_bits_of(AVPixelFormat format) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (d == nullptr) return 0;
  if (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)) return 0;
  const int colour_components = d->nb_components - ((d->flags & AV_PIX_FMT_FLAG_ALPHA) ? 1 : 0);
  return colour_components == 1 ? d->comp[0].depth : 0;
}

}  // namespace

std::string FfmpegVideoReader::pixel_format_name() const {
  const char* name = av_get_pix_fmt_name(context_->codec->pix_fmt);
  return name ? name : "unknown";
}

int FfmpegVideoReader::gray_bits() const { return gray_bits_of(context_->codec->pix_fmt); }

double FfmpegVideoReader::frames_per_second() const {
  const AVStream* stream = context_->format->streams[context_->stream_index];
  for (const AVRational rate : {stream->avg_frame_rate, stream->r_frame_rate}) {
    if (rate.num > 0 && rate.den > 0) {
      const double fps = av_q2d(rate);
      if (std::isfinite(fps) && fps > 0 && fps < 1000) return fps;
    }
  }
  return 0.0;
}

int64_t FfmpegVideoReader::frame_count() const {
  const AVStream* stream = context_->format->streams[context_->stream_index];
  if (stream->nb_frames > 0) return stream->nb_frames;
  // Matroska keeps no frame count: the duration times the rate, as OpenCV estimates it.
  const double fps = frames_per_second();
  double seconds = 0.0;
  if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) {
    seconds = stream->duration * av_q2d(stream->time_base);
  } else if (context_->format->duration != AV_NOPTS_VALUE && context_->format->duration > 0) {
    seconds = static_cast<double>(context_->format->duration) / AV_TIME_BASE;
  }
  const int64_t estimate = std::llround(seconds * fps);
  return estimate > 0 ? estimate : -1;
}

std::optional<int> video_gray_bits(const std::string& path) {
  silence_ffmpeg_log();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) return std::nullopt;
  std::optional<int> bits;
  const AVCodec* decoder = nullptr;
  if (avformat_find_stream_info(format, nullptr) >= 0) {
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (index >= 0 && decoder != nullptr) {
      bits = gray_bits_of(static_cast<AVPixelFormat>(format->streams[index]->codecpar->format));
    }
  }
  avformat_close_input(&format);
  return bits;
}

bool FfmpegVideoReader::receive_frame(Frame& out, BlockPool* pool) {
  Context& c = *context_;
  const int e = avcodec_receive_frame(c.codec, c.decoded);
  if (e == AVERROR(EAGAIN) || e == AVERROR_EOF) return false;
  if (e < 0) {
    truncated_ = true;
    return false;
  }
  const AVPixelFormat target = pixels_ == Pixels::Gray16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_RGB24;
  const int w = c.decoded->width;
  const int h = c.decoded->height;
  c.converter = sws_getCachedContext(c.converter, w, h, static_cast<AVPixelFormat>(c.decoded->format),
                                     w, h, target, SWS_BICUBIC | SWS_ACCURATE_RND, nullptr,
                                     nullptr, nullptr);
  if (!c.converter) throw RuntimeError("decoding '" + path_ + "': no conversion of its pixel format");
  uint8_t* planes[4] = {};
  int strides[4] = {};
  if (pixels_ == Pixels::Gray16) {
    out.gray16 = pooled_image<ImageU16>(pool, w, h);
    planes[0] = reinterpret_cast<uint8_t*>(out.gray16.data());
    strides[0] = 2 * w;
  } else {
    out.rgb = ImageRgb8(w, h);
    planes[0] = reinterpret_cast<uint8_t*>(out.rgb.data());
    strides[0] = 3 * w;
  }
  sws_scale(c.converter, c.decoded->data, c.decoded->linesize, 0, h, planes, strides);
  if (pixels_ == Pixels::Gray16) {  // gray16le in memory; fix the values on a big-endian host
    const uint16_t probe = 1;
    if (*reinterpret_cast<const uint8_t*>(&probe) == 0) {
      for (uint16_t& v : out.gray16.pixels()) v = static_cast<uint16_t>((v >> 8) | (v << 8));
    }
  }
  const int64_t pts = c.decoded->best_effort_timestamp;
  const AVStream* stream = c.format->streams[c.stream_index];
  out.timestamp_s = 0.0;
  if (pts != AV_NOPTS_VALUE) {
    const int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    out.timestamp_s = (pts - start) * av_q2d(stream->time_base);
  }
  av_frame_unref(c.decoded);
  return true;
}

std::optional<FfmpegVideoReader::Frame> FfmpegVideoReader::read(BlockPool* pool) {
  Context& c = *context_;
  Frame frame;
  while (!done_) {
    if (receive_frame(frame, pool)) return frame;
    if (draining_) {
      done_ = true;
      break;
    }
    const int e = av_read_frame(c.format, c.packet);
    if (e < 0) {
      if (e != AVERROR_EOF) truncated_ = true;
      avcodec_send_packet(c.codec, nullptr);  // hand out what the decoder still holds
      draining_ = true;
      continue;
    }
    if (c.packet->stream_index == c.stream_index && avcodec_send_packet(c.codec, c.packet) < 0) {
      truncated_ = true;  // a damaged packet: skip it, later key frames may still decode
    }
    av_packet_unref(c.packet);
  }
  return std::nullopt;
}

}  // namespace sv
