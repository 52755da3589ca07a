#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "src/core/frame_source.h"
#include "src/io/frame_conversion.h"
#include "src/io/frame_pairing.h"
#include "src/io/notice_sink.h"

namespace sv {

// What to ask a V4L2 camera for. Zero / empty means the driver's current setting.
struct CameraOptions {
  // One device: a stereo webcam delivering both views in one frame (ELP, ZED in UVC mode...).
  // Two devices: left and right cameras, paired by timestamp.
  std::vector<int> devices;
  int width = 0;   // per device; for a packed stereo webcam the size of the packed frame
  int height = 0;
  double fps = 0.0;
  std::string pixel_format;  // "MJPG" or "YUYV" (V4L2 fourcc), or empty
  PackedLayout layout = PackedLayout::Auto;  // how a single device packs the views
  // Two cameras: frames further apart than this are not a pair. 0: 0.55 of a frame period at the
  // nominal rate (30 frames/s when unknown): free-running cameras are at most half a period out of
  // phase, so every frame then has a partner.
  double pairing_tolerance_s = 0.0;
  // How long next() waits for a frame before it reports the camera as stalled.
  double frame_timeout_s = 2.0;
};

// Throws InputError unless options name one or two devices, a size given in full, a format of
// MJPG/YUYV and positive timeouts.
void validate_camera_options(const CameraOptions& options);

// V4L2 cameras through OpenCV's videoio. Live: next() blocks until the next pair, at most about
// frame_timeout_s, then throws RuntimeError. A camera that stops (unplugged, USB reset) is closed
// and reopened; while it cannot be reopened every next() tries again and throws a RuntimeError
// that says so, so the capture thread can show it and keep calling.
class CameraSource : public FrameSource {
 public:
  // Opens the devices and applies the settings; InputError when a device is absent, busy or
  // refused by permissions, naming it and listing the attached cameras.
  explicit CameraSource(CameraOptions options, NoticeSink notices = {});
  ~CameraSource() override;

  std::string describe() const override;
  bool is_live() const override { return true; }
  double frames_per_second() const override { return fps_; }
  std::optional<StereoPair> next() override;

  // Two cameras: how many frames found a partner and how many did not.
  PairingStats pairing_stats() const;

 private:
  struct Device;
  void open_device(Device& device);
  std::optional<StereoPair> next_packed();
  std::optional<StereoPair> next_paired();
  void recover(Device& device, const std::string& what);

  CameraOptions options_;
  NoticeSink notices_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<TimestampPairer<ImageRgb8>> pairer_;
  double fps_ = 0.0;
  int64_t next_index_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sv
