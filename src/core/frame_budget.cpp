#include "src/core/frame_budget.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

#include "src/core/byte_count.h"
#include "src/core/error.h"

namespace sv {
namespace {

// A one-line number from a cgroup v2 file ("max" or missing: no limit).
std::optional<uint64_t> read_cgroup_number(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// What an address-space limit (ulimit -v) leaves beyond the process's mappings; nullopt
// without a limit. Allocations past it fail however much memory the host has free.
std::optional<uint64_t> address_space_left() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream statm("/proc/self/statm");
  uint64_t mapped_pages = 0;
  if (!(statm >> mapped_pages)) return std::nullopt;
  const uint64_t mapped = mapped_pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0;
}

std::string describe_frame(int width, int height, const StereoParams& params) {
  return "a " + std::to_string(width) + "x" + std::to_string(height) + " frame (" +
         params.algorithm + ", " + std::to_string(params.num_disparities) + " disparities" +
         (params.pyramid_levels > 0 ? ", " + std::to_string(params.pyramid_levels) + " pyramid level" +
                                          (params.pyramid_levels > 1 ? "s" : "")
                                    : std::string()) +
         ")";
}

std::string format_duration(double seconds) {
  char text[32];
  if (seconds < 10.0) {  // a frame announced for its slower path may take under a second
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 60.0) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else if (seconds < 3600.0) {
    std::snprintf(text, sizeof text, "%.1f min", seconds / 60.0);
  } else {
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600.0);
  }
  return text;
}

}  // namespace

std::optional<uint64_t> parse_mem_available(const std::string& meminfo) {
  std::istringstream in(meminfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    uint64_t kib = 0;
    std::string unit;
    if (!(fields >> kib >> unit) || unit != "kB") return std::nullopt;
    return kib * 1024;
  }
  return std::nullopt;
}

std::optional<uint64_t> host_available_bytes() {
  std::ifstream in("/proc/meminfo");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::optional<uint64_t> available = parse_mem_available(text.str());
  if (!available) return std::nullopt;
  // A container's limit, where the host has more than the process may take.
  const std::optional<uint64_t> limit = read_cgroup_number("/sys/fs/cgroup/memory.max");
  const std::optional<uint64_t> used = read_cgroup_number("/sys/fs/cgroup/memory.current");
  if (limit && used) *available = std::min(*available, *limit > *used ? *limit - *used : 0);
  if (const std::optional<uint64_t> left = address_space_left()) {
    *available = std::min(*available, *left);
  }
  return available;
}

void require_frame_fits(const FrameCost& cost, const MemoryAvailable& available, int width,
                        int height, const StereoParams& params, const std::string& engine) {
  const auto refuse = [&](uint64_t needed, uint64_t free, const char* where) {
    throw FrameDoesNotFitError(describe_frame(width, height, params) + " needs " +
                               format_bytes(needed) + " of " + where + " memory on the " + engine +
                               " engine, but " + format_bytes(free) +
                               " is available: use a smaller size or fewer disparities, or add " +
                               "pyramid levels");
  };
  if (available.host && cost.host_bytes > *available.host) {
    refuse(cost.host_bytes, *available.host, "host");
  }
  if (available.device && cost.device_bytes > *available.device) {
    refuse(cost.device_bytes, *available.device, "device");
  }
}

std::string slow_frame_notice(const FrameCost& cost, int width, int height,
                              const StereoParams& params, const std::string& engine) {
  if (!(cost.seconds >= kSlowFrameSeconds) && cost.slower_path.empty()) return "";
  return describe_frame(width, height, params) + " takes about " + format_duration(cost.seconds) +
         " on the " + engine + " engine" +
         (cost.slower_path.empty() ? "" : ": " + cost.slower_path);
}

std::string FrameBudget::check(const StereoEngine& engine, int width, int height,
                               const StereoParams& params) {
  const std::string name = engine.name();
  if (checked_ && name == engine_ && width == width_ && height == height_ && params == params_) {
    return "";
  }
  const FrameCost cost = engine.frame_cost(width, height, params);
  MemoryAvailable available;
  available.host = host_available_bytes();
  available.device = engine.free_device_bytes();
  const bool same_engine = checked_ && name == engine_;
  if (available.device && same_engine) *available.device += held_device_bytes_;
  require_frame_fits(cost, available, width, height, params, name);
  checked_ = true;
  engine_ = name;
  width_ = width;
  height_ = height;
  params_ = params;
  held_device_bytes_ = same_engine ? std::max(held_device_bytes_, cost.device_bytes) : cost.device_bytes;
  return slow_frame_notice(cost, width, height, params, name);
}

}  // namespace sv
