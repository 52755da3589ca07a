#pragma once

#include <memory>
#include <string>

#include "src/core/frame_source.h"
#include "src/io/frame_conversion.h"
#include "src/io/notice_sink.h"

namespace sv {

// A USB camera by its USB identity: vendor and product id (hex) and optionally its serial.
struct UvcDeviceId {
  int vendor_id = 0;
  int product_id = 0;
  std::string serial;  // empty: the first camera with these ids
};

// Parses "VID:PID" or "VID:PID:SERIAL", ids in hex (e.g. "32e4:9750"); InputError otherwise.
UvcDeviceId parse_uvc_device_id(const std::string& text);

struct UvcOptions {
  UvcDeviceId device;
  int width = 0;   // size of the (packed) frame; 0: the camera's first size for the format
  int height = 0;
  double fps = 0.0;  // 0: the camera's default interval for that size
  std::string pixel_format;  // "MJPG" or "YUYV"; empty: MJPG when offered, else YUYV
  PackedLayout layout = PackedLayout::Auto;
  double frame_timeout_s = 2.0;
  int exposure = -1;  // absolute exposure time in 100 us units, manual mode; -1: leave automatic
  int gain = -1;      // -1: leave as is
};

// Whether this build has libuvc (found through pkg-config or its CMake package at configure time).
bool uvc_support_built();

// The attached UVC devices, one per line ("32e4:9750:SERIAL  Manufacturer Product"), a line that
// says there are none, or, in a build without libuvc, a line that says so.
std::string describe_uvc_devices();

// A stereo UVC camera through libuvc, delivering side-by-side or top-bottom frames as MJPEG or
// YUYV, decoded and split on the capture thread. Live: next() waits at most frame_timeout_s, then
// restarts the stream and throws RuntimeError; a torn MJPEG frame is skipped and counted.
// In a build without libuvc the constructor throws RuntimeError saying so.
class UvcSource : public FrameSource {
 public:
  // InputError: no such device, permission denied, busy, or no stream of that format/size.
  explicit UvcSource(UvcOptions options, NoticeSink notices = {});
  ~UvcSource() override;

  std::string describe() const override;
  bool is_live() const override { return true; }
  double frames_per_second() const override;
  std::optional<StereoPair> next() override;

  int64_t damaged_frames() const;

 private:
  struct Device;
  std::unique_ptr<Device> device_;
  UvcOptions options_;
  NoticeSink notices_;
  int64_t next_index_ = 0;
};

}  // namespace sv
