#include "src/io/ffmpeg_log.h"

#include <cstdarg>
#include <cstdlib>
#include <mutex>

extern "C" {
#include <libavutil/log.h>
}

namespace sv {
namespace {

void drop_log_line(void*, int, const char*, va_list) {}

}  // namespace

void silence_ffmpeg_log() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (std::getenv("OPENCV_FFMPEG_DEBUG") != nullptr) return;
    av_log_set_callback(drop_log_line);
  });
}

}  // namespace sv
