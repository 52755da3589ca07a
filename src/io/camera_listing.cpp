#include "src/io/camera_listing.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <linux/videodev2.h>
#include <sstream>
#include <sys/ioctl.h>
#include <unistd.h>

namespace sv {
namespace {

// N for a name "videoN", else -1.
int video_node_index(const std::string& name) {
  const std::string prefix = "video";
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return -1;
  const std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return -1;
  }
  return std::stoi(digits);
}

std::string text_of(const uint8_t* field, size_t size) {
  const auto* chars = reinterpret_cast<const char*>(field);
  return std::string(chars, strnlen(chars, size));
}

// Fills name/bus from VIDIOC_QUERYCAP; false when the node captures no video.
bool query_capture_node(CameraInfo& info) {
  const int fd = ::open(info.path.c_str(), O_RDWR | O_NONBLOCK);
  if (fd < 0) {
    info.problem = errno == EACCES ? "permission denied (is your user in the 'video' group?)"
                                   : std::string("cannot open: ") + std::strerror(errno);
    return true;
  }
  v4l2_capability caps{};
  const bool queried = ::ioctl(fd, VIDIOC_QUERYCAP, &caps) == 0;
  const int query_errno = errno;
  ::close(fd);
  if (!queried) {
    info.problem = std::string("not answering V4L2 queries: ") + std::strerror(query_errno);
    return true;
  }
  const uint32_t node_caps =
      (caps.capabilities & V4L2_CAP_DEVICE_CAPS) ? caps.device_caps : caps.capabilities;
  if (!(node_caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE))) return false;
  info.name = text_of(caps.card, sizeof caps.card);
  info.bus = text_of(caps.bus_info, sizeof caps.bus_info);
  return true;
}

}  // namespace

std::vector<CameraInfo> list_cameras(const std::string& dev_dir) {
  std::vector<CameraInfo> cameras;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dev_dir, ec)) {
    const int index = video_node_index(entry.path().filename().string());
    if (index < 0) continue;
    CameraInfo info;
    info.index = index;
    info.path = entry.path().string();
    if (query_capture_node(info)) cameras.push_back(info);
  }
  std::sort(cameras.begin(), cameras.end(),
            [](const CameraInfo& a, const CameraInfo& b) { return a.index < b.index; });
  return cameras;
}

std::string describe_cameras(const std::vector<CameraInfo>& cameras, const std::string& dev_dir) {
  std::ostringstream out;
  if (cameras.empty()) {
    out << "no cameras found: no video capture device under " << dev_dir
        << "/video* (is a camera plugged in, and does the kernel see it? try `v4l2-ctl "
           "--list-devices`)\n";
    return out.str();
  }
  out << "V4L2 cameras (use --camera N, or --camera N M for a pair):\n";
  for (const auto& c : cameras) {
    out << "  " << c.index << "  " << c.path;
    if (!c.name.empty()) out << "  " << c.name;
    if (!c.bus.empty()) out << "  [" << c.bus << "]";
    if (!c.problem.empty()) out << "  (" << c.problem << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace sv
