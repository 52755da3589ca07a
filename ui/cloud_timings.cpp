#include "ui/cloud_timings.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace sv {

void CloudTimings::add(Part part, double ms) {
  std::deque<double>& times = times_[index(part)];
  times.push_back(ms);
  while (times.size() > kWindow) times.pop_front();
}

void CloudTimings::clear() {
  for (std::deque<double>& times : times_) times.clear();
}

std::optional<double> CloudTimings::median(Part part) const {
  const std::deque<double>& times = times_[index(part)];
  if (times.empty()) return std::nullopt;
  std::vector<double> sorted(times.begin(), times.end());
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

std::string CloudTimings::text(size_t points, const std::string& path) const {
  std::string out = std::to_string(points) + " points, " + path + ":";
  const char* separator = " ";
  size_t most = 0;
  const struct {
    Part part;
    const char* name;
  } parts[] = {{Part::Build, "build"}, {Part::Upload, "upload"}, {Part::Draw, "draw"}};
  for (const auto& p : parts) {
    const std::optional<double> ms = median(p.part);
    if (!ms) continue;
    char item[64];
    std::snprintf(item, sizeof item, "%s%s %.2f ms%s", separator, p.name, *ms,
                  p.part == Part::Draw ? " (GL)" : "");
    out += item;
    separator = ", ";
    most = std::max(most, samples(p.part));
  }
  if (most == 0) return out + " no frame timed yet";
  return out + ", medians of the last " + std::to_string(most) + " frames";
}

}  // namespace sv
