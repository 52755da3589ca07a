#pragma once

#include <string>
#include <vector>

namespace sv {

// A V4L2 video capture node (/dev/videoN) as the kernel describes it.
struct CameraInfo {
  int index = -1;           // N of /dev/videoN: what --camera takes
  std::string path;         // /dev/videoN
  std::string name;         // the driver's card name, e.g. "USB 2.0 Camera: HD USB Camera"
  std::string bus;          // bus_info, e.g. "usb-0000:00:14.0-3"; nodes of one device share it
  std::string problem;      // why it could not be queried (permission, busy); empty when fine
};

// Every /dev/videoN under `dev_dir` that captures video, sorted by N. Nodes that only carry
// metadata (UVC cameras add one beside each video node) are left out; nodes that cannot be opened
// are listed with the reason, so a permission problem is visible rather than an empty list.
std::vector<CameraInfo> list_cameras(const std::string& dev_dir = "/dev");

// The listing as text for --list-cameras; with no cameras, one line that says so and where it
// looked, and what to check.
std::string describe_cameras(const std::vector<CameraInfo>& cameras,
                             const std::string& dev_dir = "/dev");

}  // namespace sv
