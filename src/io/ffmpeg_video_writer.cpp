#include "src/io/ffmpeg_video_writer.h"

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

// Lossy codecs get 4:2:0, because that is what every player decodes; lossless ones the format
// FFmpeg rates best for the input (RGB stays exact).
AVPixelFormat choose_pixel_format(const AVCodec* codec, bool gray16) {
  const AVPixelFormat input = gray16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_RGB24;
  if (!codec->pix_fmts) return input;
  bool has_yuv420 = false;
  for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f) {
    if (*f == input) return input;
    has_yuv420 = has_yuv420 || *f == AV_PIX_FMT_YUV420P;
  }
  if (gray16) return AV_PIX_FMT_NONE;  // anything else would not decode back exactly
  if (has_yuv420 && !is_lossless_codec(codec->id)) return AV_PIX_FMT_YUV420P;
  return avcodec_find_best_pix_fmt_of_list(codec->pix_fmts, input, 0, nullptr);
}

}  // namespace

struct FfmpegVideoWriter::Context {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* input = nullptr;    // the caller's pixels, padded to the encoded size
  AVFrame* encoded = nullptr;  // in the codec's pixel format (== input when no conversion)
  SwsContext* converter = nullptr;
  AVPacket* packet = nullptr;
  bool header_written = false;
  int64_t bytes = 0;

  ~Context() {
    sws_freeContext(converter);
    if (encoded != input) av_frame_free(&encoded);
    av_frame_free(&input);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    if (format) {
      if (format->pb) avio_closep(&format->pb);
      avformat_free_context(format);
    }
  }
};

bool has_video_encoder(const std::string& name) {
  const AVCodec* codec = avcodec_find_encoder_by_name(name.c_str());
  return codec && codec->type == AVMEDIA_TYPE_VIDEO;
}

std::string default_codec_for(bool gray16, std::string* note) {
  if (gray16) return "ffv1";
  if (has_video_encoder("libx264")) return "libx264";
  if (note) *note = "this FFmpeg build has no H.264 encoder (libx264); recording MPEG-4 Part 2 instead";
  return "mpeg4";
}

FfmpegVideoWriter::FfmpegVideoWriter(const VideoWriterSettings& settings)
    : settings_(settings), context_(std::make_unique<Context>()) {
  // Every failure comes back as an exception with a message; FFmpeg's own log would only
  // repeat it (or chatter about encoder settings) on stderr.
  av_log_set_level(AV_LOG_FATAL);
  const std::string& path = settings_.path;
  const std::string where = "recording to " + path + ": ";
  if (settings_.width < 1 || settings_.height < 1) throw RuntimeError(where + "empty frame size");
  Context& c = *context_;

  if (avformat_alloc_output_context2(&c.format, nullptr, nullptr, path.c_str()) < 0 || !c.format) {
    throw RuntimeError(where + "FFmpeg knows no container for this file name's extension "
                       "(use .mp4, .mkv, .avi, .mov, ...)");
  }
  const AVCodec* codec = avcodec_find_encoder_by_name(settings_.codec.c_str());
  if (!codec || codec->type != AVMEDIA_TYPE_VIDEO) {
    throw RuntimeError(where + "this FFmpeg build has no video encoder \"" + settings_.codec +
                       "\" (try libx264, mpeg4, mjpeg or ffv1)");
  }
  if (avformat_query_codec(c.format->oformat, codec->id, FF_COMPLIANCE_NORMAL) != 1) {
    throw RuntimeError(where + "the " + c.format->oformat->name + " container cannot hold " +
                       settings_.codec + " video (pick another codec or file extension)");
  }
  const AVPixelFormat pixel_format = choose_pixel_format(codec, settings_.gray16);
  if (pixel_format == AV_PIX_FMT_NONE) {
    throw RuntimeError(where + settings_.codec + " cannot store 16-bit gray frames (use ffv1)");
  }
  const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(pixel_format);
  const bool subsampled = descriptor->log2_chroma_w > 0 || descriptor->log2_chroma_h > 0;

  c.codec = avcodec_alloc_context3(codec);
  c.packet = av_packet_alloc();
  if (!c.codec || !c.packet) throw RuntimeError(where + "out of memory");
  c.codec->width = subsampled ? (settings_.width + 1) / 2 * 2 : settings_.width;
  c.codec->height = subsampled ? (settings_.height + 1) / 2 * 2 : settings_.height;
  c.codec->pix_fmt = pixel_format;
  const double fps = settings_.frames_per_second > 0 ? settings_.frames_per_second : 30.0;
  const AVRational rate = av_d2q(fps, 100000);
  c.codec->framerate = rate;
  c.codec->time_base = av_inv_q(rate);
  // A key frame a second bounds what a cut-off file loses (one fragment of MP4).
  c.codec->gop_size = std::max(1, static_cast<int>(std::lround(fps)));
  if (c.format->oformat->flags & AVFMT_GLOBALHEADER) c.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (settings_.codec == "libx264") {
    av_opt_set(c.codec->priv_data, "preset", "veryfast", 0);
    av_opt_set(c.codec->priv_data, "crf", "16", 0);  // visually lossless on colormaps
  } else if (settings_.codec == "ffv1") {
    av_opt_set(c.codec->priv_data, "slicecrc", "1", 0);  // damage is detected, not decoded
    c.codec->level = 3;
  } else if (codec->id == AV_CODEC_ID_MPEG4 || codec->id == AV_CODEC_ID_MJPEG) {
    c.codec->qmin = 2;
    c.codec->qmax = 4;
  }
  if (int e = avcodec_open2(c.codec, codec, nullptr); e < 0) {
    throw RuntimeError(where + settings_.codec + " refused " + std::to_string(c.codec->width) +
                       "x" + std::to_string(c.codec->height) + " " + descriptor->name + ": " +
                       av_error_text(e));
  }

  c.stream = avformat_new_stream(c.format, nullptr);
  if (!c.stream) throw RuntimeError(where + "out of memory");
  c.stream->time_base = c.codec->time_base;
  c.stream->avg_frame_rate = rate;
  avcodec_parameters_from_context(c.stream->codecpar, c.codec);

  c.input = av_frame_alloc();
  if (!c.input) throw RuntimeError(where + "out of memory");
  c.input->format = settings_.gray16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_RGB24;
  c.input->width = c.codec->width;
  c.input->height = c.codec->height;
  if (av_frame_get_buffer(c.input, 0) < 0) throw RuntimeError(where + "out of memory");
  if (pixel_format == c.input->format) {
    c.encoded = c.input;
  } else {
    c.encoded = av_frame_alloc();
    if (!c.encoded) throw RuntimeError(where + "out of memory");
    c.encoded->format = pixel_format;
    c.encoded->width = c.codec->width;
    c.encoded->height = c.codec->height;
    if (av_frame_get_buffer(c.encoded, 0) < 0) throw RuntimeError(where + "out of memory");
    c.converter = sws_getContext(c.codec->width, c.codec->height,
                                 static_cast<AVPixelFormat>(c.input->format), c.codec->width,
                                 c.codec->height, pixel_format, SWS_BICUBIC | SWS_ACCURATE_RND,
                                 nullptr, nullptr, nullptr);
    if (!c.converter) throw RuntimeError(where + "no conversion to " + descriptor->name);
  }

  if (int e = avio_open(&c.format->pb, path.c_str(), AVIO_FLAG_WRITE); e < 0) {
    throw RuntimeError("cannot record to " + path + ": " + av_error_text(e));
  }
  AVDictionary* options = nullptr;
  const std::string container = c.format->oformat->name;
  if (container.find("mp4") != std::string::npos || container.find("mov") != std::string::npos) {
    av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
  }
  const int e = avformat_write_header(c.format, &options);
  av_dict_free(&options);
  if (e < 0) throw RuntimeError(where + "cannot write the file header: " + av_error_text(e));
  c.header_written = true;
  avio_flush(c.format->pb);
  if (c.format->pb->error < 0) {
    throw RuntimeError(where + "cannot write the file header: " + av_error_text(c.format->pb->error));
  }
  c.bytes = avio_tell(c.format->pb);
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
    if (input->width > image.width()) std::memcpy(dst + 3 * image.width(), dst + 3 * (image.width() - 1), 3);
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
  if (finished_) throw RuntimeError("recording to " + path() + ": the file is already closed");
  if (c.converter) {
    if (av_frame_make_writable(c.encoded) < 0) throw RuntimeError("recording: out of memory");
    sws_scale(c.converter, c.input->data, c.input->linesize, 0, c.input->height, c.encoded->data,
              c.encoded->linesize);
  }
  c.encoded->pts = frames_written_;
  if (int e = avcodec_send_frame(c.codec, c.encoded); e < 0) {
    throw RuntimeError("recording to " + path() + ": the encoder refused a frame: " + av_error_text(e));
  }
  drain_packets(false);
  ++frames_written_;
}

void FfmpegVideoWriter::drain_packets(bool flushing) {
  Context& c = *context_;
  for (;;) {
    const int e = avcodec_receive_packet(c.codec, c.packet);
    if (e == AVERROR(EAGAIN) || e == AVERROR_EOF) break;
    if (e < 0) throw RuntimeError("recording to " + path() + ": encoding failed: " + av_error_text(e));
    av_packet_rescale_ts(c.packet, c.codec->time_base, c.stream->time_base);
    c.packet->stream_index = c.stream->index;
    const int w = av_interleaved_write_frame(c.format, c.packet);  // takes the packet's data
    if (w < 0) throw RuntimeError("recording to " + path() + ": writing failed: " + av_error_text(w));
  }
  // Pushes the bytes to the file now, so a full disk shows at this frame, not a few later.
  avio_flush(c.format->pb);
  if (c.format->pb->error < 0) {
    throw RuntimeError("recording to " + path() + ": writing failed: " + av_error_text(c.format->pb->error));
  }
  c.bytes = std::max<int64_t>(c.bytes, avio_tell(c.format->pb));
  (void)flushing;
}

void FfmpegVideoWriter::finish() {
  if (finished_) return;
  Context& c = *context_;
  avcodec_send_frame(c.codec, nullptr);
  drain_packets(true);
  if (int e = av_write_trailer(c.format); e < 0) {
    throw RuntimeError("recording to " + path() + ": finishing the file failed: " + av_error_text(e));
  }
  avio_flush(c.format->pb);
  const int io_error = c.format->pb->error;
  c.bytes = std::max<int64_t>(c.bytes, avio_size(c.format->pb));
  finished_ = true;
  const int closed = avio_closep(&c.format->pb);
  if (io_error < 0 || closed < 0) {
    throw RuntimeError("recording to " + path() + ": finishing the file failed: " +
                       av_error_text(io_error < 0 ? io_error : closed));
  }
}

void FfmpegVideoWriter::finish_after_error() noexcept {
  if (finished_) return;
  finished_ = true;
  Context& c = *context_;
  if (c.header_written && c.format->pb) {
    // Best effort: with room left (a refused frame, not a full disk) this completes the index.
    avcodec_send_frame(c.codec, nullptr);
    while (avcodec_receive_packet(c.codec, c.packet) == 0) {
      av_packet_rescale_ts(c.packet, c.codec->time_base, c.stream->time_base);
      c.packet->stream_index = c.stream->index;
      if (av_interleaved_write_frame(c.format, c.packet) < 0) break;
    }
    av_write_trailer(c.format);
  }
  if (c.format && c.format->pb) avio_closep(&c.format->pb);
}

}  // namespace sv
