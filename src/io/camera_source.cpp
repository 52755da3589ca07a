#include "src/io/camera_source.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <opencv2/videoio.hpp>
#include <unistd.h>

#include "src/core/error.h"
#include "src/io/camera_listing.h"
#include "src/io/mat_image.h"

namespace sv {

struct CameraSource::Device {
  int index = -1;
  std::string path;
  cv::VideoCapture capture;
  int width = 0;
  int height = 0;
  double fps = 0.0;
};

namespace {

using Clock = std::chrono::steady_clock;

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string attached_cameras_text() {
  const auto cameras = list_cameras();
  if (cameras.empty()) return "no cameras are attached";
  std::string text = "attached:";
  for (const auto& c : cameras) text += " " + std::to_string(c.index) + (c.name.empty() ? "" : " (" + c.name + ")");
  return text;
}

// OpenCV's V4L2 backend waits 10 s for a stalled camera unless told otherwise, and reads the
// setting once; set it before the first camera opens (a value in the environment wins).
void limit_v4l2_wait(double timeout_s) {
  const int seconds = std::max(1, static_cast<int>(std::ceil(timeout_s)));
  setenv("OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", std::to_string(seconds).c_str(), 0);
}

std::string fourcc_text(double value) {
  const auto code = static_cast<uint32_t>(value);
  std::string text;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((code >> (8 * i)) & 0xFF);
    text += (c >= 32 && c < 127) ? c : '?';
  }
  return text;
}

// The frame's capture time: the V4L2 buffer timestamp OpenCV reports in ms (monotonic clock, the
// same for every camera), else the time it was taken from the driver.
double frame_time_s(cv::VideoCapture& capture, Clock::time_point start) {
  const double ms = capture.get(cv::CAP_PROP_POS_MSEC);
  if (ms > 0) return ms / 1000.0;
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

void validate_camera_options(const CameraOptions& o) {
  if (o.devices.empty() || o.devices.size() > 2) {
    throw InputError("--camera takes one device number (a side-by-side stereo webcam) or two "
                     "(left and right cameras), got " + std::to_string(o.devices.size()));
  }
  for (int d : o.devices) {
    if (d < 0) throw InputError("camera numbers start at 0 (/dev/video0), got " + std::to_string(d));
  }
  if (o.devices.size() == 2 && o.devices[0] == o.devices[1]) {
    throw InputError("left and right camera are the same device " + std::to_string(o.devices[0]));
  }
  if ((o.width == 0) != (o.height == 0) || o.width < 0 || o.height < 0) {
    throw InputError("camera size must give both width and height, got " + size_text(o.width, o.height));
  }
  if (o.fps < 0) throw InputError("camera frame rate must be positive");
  if (!o.pixel_format.empty() && o.pixel_format != "MJPG" && o.pixel_format != "YUYV") {
    throw InputError("camera pixel format must be MJPG or YUYV, got \"" + o.pixel_format + "\"");
  }
  if (o.frame_timeout_s <= 0 || o.pairing_tolerance_s < 0) {
    throw InputError("camera timeouts must be positive");
  }
}

CameraSource::CameraSource(CameraOptions options, NoticeSink notices)
    : options_(std::move(options)), notices_(std::move(notices)), start_(Clock::now()) {
  validate_camera_options(options_);
  limit_v4l2_wait(options_.frame_timeout_s);
  for (int index : options_.devices) {
    auto device = std::make_unique<Device>();
    device->index = index;
    device->path = "/dev/video" + std::to_string(index);
    open_device(*device);
    devices_.push_back(std::move(device));
  }
  fps_ = devices_.front()->fps;
  if (devices_.size() == 2) {
    if (devices_[0]->width != devices_[1]->width || devices_[0]->height != devices_[1]->height) {
      throw InputError("left camera " + std::to_string(devices_[0]->index) + " delivers " +
                       size_text(devices_[0]->width, devices_[0]->height) + " but right camera " +
                       std::to_string(devices_[1]->index) + " delivers " +
                       size_text(devices_[1]->width, devices_[1]->height) +
                       ": ask both for the same size");
    }
    const double rate = fps_ > 0 ? fps_ : 30.0;
    const double tolerance =
        options_.pairing_tolerance_s > 0 ? options_.pairing_tolerance_s : 0.55 / rate;
    pairer_ = std::make_unique<TimestampPairer<ImageRgb8>>(tolerance);
  } else if (options_.layout == PackedLayout::Auto) {
    const Device& d = *devices_[0];
    if (d.width < 2 * d.height && d.height < d.width) {
      throw InputError("camera " + std::to_string(d.index) + " delivers " +
                       size_text(d.width, d.height) +
                       " frames, which hold one view, not a side-by-side or top-bottom pair: "
                       "give two cameras (--camera N M) or a packed size (--camera-size)");
    }
    options_.layout = detect_packed_layout(d.width, d.height);
  }
}

CameraSource::~CameraSource() = default;

void CameraSource::open_device(Device& device) {
  std::error_code ec;
  if (!std::filesystem::exists(device.path, ec)) {
    throw InputError("camera " + std::to_string(device.index) + ": " + device.path +
                     " does not exist (" + attached_cameras_text() + ")");
  }
  if (::access(device.path.c_str(), R_OK | W_OK) != 0 && errno == EACCES) {
    throw InputError("camera " + std::to_string(device.index) + ": permission denied on " +
                     device.path + " (add your user to the 'video' group and log in again)");
  }
  cv::VideoCapture& cap = device.capture;
  try {
    cap.open(device.index, cv::CAP_V4L2);
  } catch (const cv::Exception& e) {
    throw InputError("camera " + std::to_string(device.index) + ": " + e.what());
  }
  if (!cap.isOpened()) {
    throw InputError("camera " + std::to_string(device.index) + " (" + device.path +
                     ") could not be opened: busy (in use by another program?) or not a video "
                     "capture device (" + attached_cameras_text() + ")");
  }
  // The format first: the sizes and rates a camera offers depend on it.
  if (!options_.pixel_format.empty()) {
    const std::string& f = options_.pixel_format;
    cap.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc(f[0], f[1], f[2], f[3]));
  }
  if (options_.width > 0) {
    cap.set(cv::CAP_PROP_FRAME_WIDTH, options_.width);
    cap.set(cv::CAP_PROP_FRAME_HEIGHT, options_.height);
  }
  if (options_.fps > 0) cap.set(cv::CAP_PROP_FPS, options_.fps);

  // Streaming starts with the first grab; a busy device fails here rather than at open.
  cv::Mat first;
  if (!cap.read(first) || first.empty()) {
    cap.release();
    throw InputError("camera " + std::to_string(device.index) + " (" + device.path +
                     ") opened but delivered no frame within the timeout (busy with another "
                     "program, or a format it cannot stream)");
  }
  device.width = first.cols;
  device.height = first.rows;
  const double fps = cap.get(cv::CAP_PROP_FPS);
  device.fps = std::isfinite(fps) && fps > 0 && fps < 1000 ? fps : 0.0;
  const std::string format = fourcc_text(cap.get(cv::CAP_PROP_FOURCC));
  if ((options_.width > 0 && (device.width != options_.width || device.height != options_.height)) ||
      (!options_.pixel_format.empty() && format != options_.pixel_format) ||
      (options_.fps > 0 && std::fabs(device.fps - options_.fps) > 0.5)) {
    post_notice(notices_, "camera " + std::to_string(device.index) + " delivers " +
                              size_text(device.width, device.height) + " " + format + " at " +
                              std::to_string(static_cast<int>(std::lround(device.fps))) +
                              " frames/s, not exactly what was asked for");
  }
}

void CameraSource::recover(Device& device, const std::string& what) {
  post_notice(notices_, "camera " + std::to_string(device.index) + " " + what + "; reopening it");
  device.capture.release();
  if (pairer_) pairer_->clear();
  try {
    open_device(device);
  } catch (const InputError& e) {
    throw RuntimeError("camera " + std::to_string(device.index) + " lost (" + what +
                       ") and not back yet: " + e.what() + "; trying again on the next frame");
  }
}

std::string CameraSource::describe() const {
  const Device& d = *devices_.front();
  std::string text = devices_.size() == 1
                         ? "camera " + std::to_string(d.index) + " (" +
                               packed_layout_name(options_.layout) + ")"
                         : "cameras " + std::to_string(d.index) + " + " +
                               std::to_string(devices_[1]->index);
  return text + " " + size_text(d.width, d.height);
}

PairingStats CameraSource::pairing_stats() const { return pairer_ ? pairer_->stats() : PairingStats{}; }

std::optional<StereoPair> CameraSource::next() {
  for (auto& device : devices_) {
    if (!device->capture.isOpened()) recover(*device, "was lost");
  }
  return devices_.size() == 1 ? next_packed() : next_paired();
}

std::optional<StereoPair> CameraSource::next_packed() {
  Device& device = *devices_.front();
  cv::Mat mat;
  if (!device.capture.read(mat) || mat.empty()) {
    recover(device, "stopped delivering frames (unplugged?)");
    if (!device.capture.read(mat) || mat.empty()) {
      device.capture.release();
      throw RuntimeError("camera " + std::to_string(device.index) +
                         " delivers no frames after reopening; trying again on the next frame");
    }
  }
  const double timestamp = frame_time_s(device.capture, start_);
  SplitViews views = split_packed_frame(rgb_image_from_mat(mat), options_.layout, pair_memory());
  StereoPair pair;
  pair.index = next_index_++;
  pair.timestamp_s = timestamp;
  pair.left = std::move(views.left);
  pair.right = std::move(views.right);
  return pair;
}

std::optional<StereoPair> CameraSource::next_paired() {
  const auto deadline =
      Clock::now() + std::chrono::duration<double>(options_.frame_timeout_s);
  double latest[2] = {-1e300, -1e300};
  while (Clock::now() < deadline) {
    // Grab from the camera that is behind, so the two streams advance together.
    const int side = latest[0] <= latest[1] ? 0 : 1;
    Device& device = *devices_[side];
    cv::Mat mat;
    if (!device.capture.read(mat) || mat.empty()) {
      recover(device, "stopped delivering frames (unplugged?)");
      continue;
    }
    latest[side] = frame_time_s(device.capture, start_);
    ImageRgb8 image = rgb_image_from_mat(mat, pair_memory());
    if (side == 0) {
      pairer_->push_left(latest[side], std::move(image));
    } else {
      pairer_->push_right(latest[side], std::move(image));
    }
    if (auto matched = pairer_->pop()) {
      StereoPair pair;
      pair.index = next_index_++;
      pair.timestamp_s = matched->left.timestamp_s;
      pair.left = std::move(matched->left.frame);
      pair.right = std::move(matched->right.frame);
      return pair;
    }
  }
  const PairingStats& s = pairer_->stats();
  throw RuntimeError("cameras " + std::to_string(devices_[0]->index) + " and " +
                     std::to_string(devices_[1]->index) + " gave no pair within " +
                     std::to_string(static_cast<int>(options_.frame_timeout_s * 1000)) +
                     " ms (unpaired frames so far: left " + std::to_string(s.unpaired_left) +
                     ", right " + std::to_string(s.unpaired_right) +
                     "): do they run at the same frame rate?");
}

}  // namespace sv
