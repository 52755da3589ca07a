#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>

namespace sv {

// The 3D view's own time per frame (issue 22: "live at camera rate for 1280x720"): making the
// vertices (the host builder, or the interop path's call: map, vertex kernel, unmap), uploading
// them (host path only) and drawing them (the GL's own time, from a timer query: the points,
// not the guides). Medians over the recent frames, which a slow frame or two do not move.
class CloudTimings {
 public:
  static constexpr size_t kWindow = 60;
  enum class Part { Build, Upload, Draw };

  void add(Part part, double ms);
  void clear();
  // nullopt before the first sample.
  std::optional<double> median(Part part) const;
  size_t samples(Part part) const { return times_[index(part)].size(); }
  // "921600 points, host upload: build 10.20 ms, upload 3.10 ms, draw 15.00 ms (GL), medians
  // of the last 60 frames"; parts without samples are left out.
  std::string text(size_t points, const std::string& path) const;

 private:
  static size_t index(Part part) { return static_cast<size_t>(part); }
  std::array<std::deque<double>, 3> times_;
};

}  // namespace sv
