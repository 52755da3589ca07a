#include "src/io/uvc_source.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

#include "src/core/error.h"

#ifdef STEREOVIEW_HAS_LIBUVC
#include <libuvc/libuvc.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#endif

namespace sv {
namespace {

std::string id_text(const UvcDeviceId& id) {
  char text[16];
  std::snprintf(text, sizeof text, "%04x:%04x", id.vendor_id, id.product_id);
  return id.serial.empty() ? text : std::string(text) + ":" + id.serial;
}

int parse_usb_id(const std::string& part, const std::string& text) {
  const bool hex = !part.empty() && part.size() <= 4 &&
                   std::all_of(part.begin(), part.end(),
                               [](unsigned char c) { return std::isxdigit(c); });
  if (!hex) {
    throw InputError("--uvc expects VID:PID[:SERIAL] with hexadecimal ids, e.g. 32e4:9750, got \"" +
                     text + "\"");
  }
  return static_cast<int>(std::stoul(part, nullptr, 16));
}

}  // namespace

UvcDeviceId parse_uvc_device_id(const std::string& text) {
  // Split by hand: getline would drop a trailing empty part ("1:2:").
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == ':') {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  if (parts.size() < 2 || parts.size() > 3 || (parts.size() == 3 && parts[2].empty())) {
    throw InputError("--uvc expects VID:PID[:SERIAL] with hexadecimal ids, e.g. 32e4:9750, got \"" +
                     text + "\"");
  }
  UvcDeviceId id;
  id.vendor_id = parse_usb_id(parts[0], text);
  id.product_id = parse_usb_id(parts[1], text);
  if (parts.size() == 3) id.serial = parts[2];
  return id;
}

#ifdef STEREOVIEW_HAS_LIBUVC

namespace {

using Clock = std::chrono::steady_clock;

// A frame as the camera sent it, copied out of libuvc's callback.
struct RawFrame {
  std::vector<uint8_t> bytes;
  int width = 0;
  int height = 0;
  size_t step = 0;
  uvc_frame_format format = UVC_FRAME_FORMAT_UNKNOWN;
  double timestamp_s = 0.0;
};

std::string open_error_text(uvc_error_t error) {
  switch (error) {
    case UVC_ERROR_ACCESS:
      return "permission denied (a udev rule giving your user access to this USB device is needed)";
    case UVC_ERROR_BUSY:
      return "busy (another program holds it)";
    case UVC_ERROR_NO_DEVICE:
      return "it was unplugged";
    default:
      return uvc_strerror(error);
  }
}

const char* format_name(uvc_frame_format format) {
  return format == UVC_FRAME_FORMAT_MJPEG ? "MJPG" : "YUYV";
}

// The first size the camera lists for `format`, with its default frame rate.
bool first_frame_size(uvc_device_handle_t* handle, uvc_frame_format format, int& width,
                      int& height, int& fps) {
  for (const uvc_format_desc_t* f = uvc_get_format_descs(handle); f; f = f->next) {
    const bool matches =
        (format == UVC_FRAME_FORMAT_MJPEG && f->bDescriptorSubtype == UVC_VS_FORMAT_MJPEG) ||
        (format == UVC_FRAME_FORMAT_YUYV && f->bDescriptorSubtype == UVC_VS_FORMAT_UNCOMPRESSED &&
         std::memcmp(f->fourccFormat, "YUY2", 4) == 0);
    if (!matches || !f->frame_descs) continue;
    const uvc_frame_desc_t* frame = f->frame_descs;
    width = frame->wWidth;
    height = frame->wHeight;
    fps = frame->dwDefaultFrameInterval ? static_cast<int>(10000000 / frame->dwDefaultFrameInterval) : 30;
    return true;
  }
  return false;
}

}  // namespace

struct UvcSource::Device {
  uvc_context_t* context = nullptr;
  uvc_device_t* device = nullptr;
  uvc_device_handle_t* handle = nullptr;
  uvc_stream_ctrl_t control{};
  bool streaming = false;
  uvc_frame_format format = UVC_FRAME_FORMAT_MJPEG;
  int width = 0;
  int height = 0;
  int fps = 0;
  Clock::time_point start = Clock::now();

  std::mutex mutex;
  std::condition_variable arrived;
  std::optional<RawFrame> latest;  // newest wins: a live camera keeps no backlog
  int64_t damaged = 0;

  ~Device() { close(); }

  void close() {
    if (streaming) uvc_stop_streaming(handle);
    streaming = false;
    if (handle) uvc_close(handle);
    handle = nullptr;
    if (device) uvc_unref_device(device);
    device = nullptr;
    if (context) uvc_exit(context);
    context = nullptr;
  }

  // libuvc's streaming thread; no uvc_* calls allowed here.
  static void on_frame(uvc_frame_t* frame, void* user) {
    auto* self = static_cast<Device*>(user);
    RawFrame raw;
    const auto* bytes = static_cast<const uint8_t*>(frame->data);
    raw.bytes.assign(bytes, bytes + frame->data_bytes);
    raw.width = static_cast<int>(frame->width);
    raw.height = static_cast<int>(frame->height);
    raw.step = frame->step;
    raw.format = frame->frame_format;
    raw.timestamp_s =
        frame->capture_time.tv_sec != 0
            ? frame->capture_time.tv_sec + frame->capture_time.tv_usec * 1e-6
            : std::chrono::duration<double>(Clock::now() - self->start).count();
    {
      std::lock_guard<std::mutex> lock(self->mutex);
      self->latest = std::move(raw);
    }
    self->arrived.notify_one();
  }

  void open(const UvcOptions& options, const NoticeSink& notices) {
    const std::string name = "UVC camera " + id_text(options.device);
    if (const uvc_error_t e = uvc_init(&context, nullptr); e < 0) {
      context = nullptr;
      throw RuntimeError("libuvc cannot start: " + std::string(uvc_strerror(e)));
    }
    const char* serial = options.device.serial.empty() ? nullptr : options.device.serial.c_str();
    if (uvc_find_device(context, &device, options.device.vendor_id, options.device.product_id,
                        serial) < 0) {
      device = nullptr;
      throw InputError(name + " is not attached (" + describe_uvc_devices() + ")");
    }
    if (const uvc_error_t e = uvc_open(device, &handle); e < 0) {
      handle = nullptr;
      throw InputError(name + " cannot be opened: " + open_error_text(e));
    }
    std::vector<uvc_frame_format> formats;
    if (options.pixel_format != "YUYV") formats.push_back(UVC_FRAME_FORMAT_MJPEG);
    if (options.pixel_format != "MJPG") formats.push_back(UVC_FRAME_FORMAT_YUYV);
    bool negotiated = false;
    for (uvc_frame_format f : formats) {
      int w = options.width, h = options.height, rate = static_cast<int>(options.fps);
      int listed_w = 0, listed_h = 0, listed_fps = 0;
      if (!first_frame_size(handle, f, listed_w, listed_h, listed_fps)) continue;
      if (w == 0) {
        w = listed_w;
        h = listed_h;
      }
      if (rate == 0) rate = listed_fps;
      if (uvc_get_stream_ctrl_format_size(handle, &control, f, w, h, rate) == UVC_SUCCESS) {
        format = f;
        width = w;
        height = h;
        fps = rate;
        negotiated = true;
        break;
      }
    }
    if (!negotiated) {
      throw InputError(name + " offers no " +
                       (options.pixel_format.empty() ? std::string("MJPG or YUYV") : options.pixel_format) +
                       " stream" +
                       (options.width ? " of " + std::to_string(options.width) + "x" +
                                            std::to_string(options.height)
                                      : std::string()) +
                       (options.fps > 0 ? " at " + std::to_string(static_cast<int>(options.fps)) + " frames/s"
                                        : std::string()));
    }
    if (options.exposure >= 0) {
      // Mode 1 is "manual" in the UVC auto-exposure bitmap.
      if (uvc_set_ae_mode(handle, 1) < 0 ||
          uvc_set_exposure_abs(handle, static_cast<uint32_t>(options.exposure)) < 0) {
        post_notice(notices, name + " does not offer manual exposure; left automatic");
      }
    }
    if (options.gain >= 0 && uvc_set_gain(handle, static_cast<uint16_t>(options.gain)) < 0) {
      post_notice(notices, name + " does not offer gain control; left as it was");
    }
    if (const uvc_error_t e = uvc_start_streaming(handle, &control, &Device::on_frame, this, 0);
        e < 0) {
      throw InputError(name + " refused to stream " + format_name(format) + ": " +
                       open_error_text(e));
    }
    streaming = true;
  }
};

bool uvc_support_built() { return true; }

std::string describe_uvc_devices() {
  uvc_context_t* context = nullptr;
  if (const uvc_error_t e = uvc_init(&context, nullptr); e < 0) {
    return std::string("UVC cameras cannot be listed: ") + uvc_strerror(e);
  }
  uvc_device_t** list = nullptr;
  std::ostringstream out;
  if (uvc_get_device_list(context, &list) < 0 || !list || !list[0]) {
    out << "no UVC cameras found (is one plugged in, and may your user access USB devices?)";
  } else {
    out << "UVC cameras (use --uvc VID:PID[:SERIAL]):";
    for (int i = 0; list[i]; ++i) {
      uvc_device_descriptor_t* d = nullptr;
      if (uvc_get_device_descriptor(list[i], &d) < 0) continue;
      UvcDeviceId id{d->idVendor, d->idProduct, d->serialNumber ? d->serialNumber : ""};
      out << "\n  " << id_text(id) << "  " << (d->manufacturer ? d->manufacturer : "")
          << (d->manufacturer && d->product ? " " : "") << (d->product ? d->product : "");
      uvc_free_device_descriptor(d);
    }
  }
  if (list) uvc_free_device_list(list, 1);
  uvc_exit(context);
  return out.str();
}

UvcSource::UvcSource(UvcOptions options, NoticeSink notices)
    : device_(std::make_unique<Device>()), options_(std::move(options)), notices_(std::move(notices)) {
  if (options_.frame_timeout_s <= 0) throw InputError("UVC frame timeout must be positive");
  device_->open(options_, notices_);
  if (options_.layout == PackedLayout::Auto) {
    options_.layout = detect_packed_layout(device_->width, device_->height);
  }
}

UvcSource::~UvcSource() = default;

std::string UvcSource::describe() const {
  return "UVC camera " + id_text(options_.device) + " " + format_name(device_->format) + " " +
         std::to_string(device_->width) + "x" + std::to_string(device_->height) + " (" +
         packed_layout_name(options_.layout) + ")";
}

double UvcSource::frames_per_second() const { return device_->fps; }

int64_t UvcSource::damaged_frames() const {
  std::lock_guard<std::mutex> lock(device_->mutex);
  return device_->damaged;
}

std::optional<StereoPair> UvcSource::next() {
  const auto deadline = Clock::now() + std::chrono::duration<double>(options_.frame_timeout_s);
  while (true) {
    std::optional<RawFrame> raw;
    {
      std::unique_lock<std::mutex> lock(device_->mutex);
      device_->arrived.wait_until(lock, deadline, [&] { return device_->latest.has_value(); });
      raw = std::move(device_->latest);
      device_->latest.reset();
    }
    if (!raw) break;
    ImageRgb8 image;
    try {
      image = raw->format == UVC_FRAME_FORMAT_MJPEG
                  ? decode_mjpeg(raw->bytes.data(), raw->bytes.size())
                  : yuyv_to_rgb(raw->bytes.data(), raw->bytes.size(), raw->width, raw->height, raw->step);
    } catch (const InputError&) {
      std::lock_guard<std::mutex> lock(device_->mutex);
      ++device_->damaged;  // a torn frame: wait for the next one
      continue;
    }
    // The views go into the engine's pooled memory when the frame loop lent it (as CameraSource).
    SplitViews views = split_packed_frame(image, options_.layout, pair_memory());
    StereoPair pair;
    pair.index = next_index_++;
    pair.timestamp_s = raw->timestamp_s;
    pair.left = std::move(views.left);
    pair.right = std::move(views.right);
    return pair;
  }
  // No frame in time: unplugged or stalled. Restart the stream so the next call may succeed.
  const std::string name = "UVC camera " + id_text(options_.device);
  post_notice(notices_, name + " sent no frame for " +
                            std::to_string(static_cast<int>(options_.frame_timeout_s * 1000)) +
                            " ms; reopening it");
  device_->close();
  try {
    device_->open(options_, notices_);
  } catch (const std::exception& e) {
    device_->close();
    throw RuntimeError(name + " lost and not back yet: " + e.what() +
                       "; trying again on the next frame");
  }
  throw RuntimeError(name + " stalled; its stream was restarted");
}

#else  // no libuvc in this build

struct UvcSource::Device {};

namespace {
const char* kNoLibuvc =
    "this build has no libuvc support (libuvc-dev and libusb-1.0-0-dev were not found when it "
    "was configured)";
}

bool uvc_support_built() { return false; }

std::string describe_uvc_devices() {
  return std::string("UVC cameras: ") + kNoLibuvc + "; V4L2 cameras (--camera N) work without it";
}

UvcSource::UvcSource(UvcOptions options, NoticeSink notices)
    : options_(std::move(options)), notices_(std::move(notices)) {
  throw RuntimeError(std::string("--uvc ") + id_text(options_.device) + ": " + kNoLibuvc +
                     "; open the same camera through V4L2 with --camera N (see --list-cameras)");
}

UvcSource::~UvcSource() = default;
std::string UvcSource::describe() const { return "UVC camera " + id_text(options_.device); }
double UvcSource::frames_per_second() const { return 0.0; }
int64_t UvcSource::damaged_frames() const { return 0; }
std::optional<StereoPair> UvcSource::next() { return std::nullopt; }

#endif

}  // namespace sv
