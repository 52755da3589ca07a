#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/core/error.h"
#include "src/core/stereo_engine.h"

namespace sv {

// Whether a frame fits, checked before it is computed: an engine's FrameCost for the frame's
// size and parameters against the memory available now, on the host and on the engine's
// device, so that a frame that cannot fit is refused with both numbers instead of being
// swapped to a crawl or killed halfway; and, for a slow engine, how long a frame will take.

struct MemoryAvailable {
  std::optional<uint64_t> host;    // nullopt: unknown, not checked
  std::optional<uint64_t> device;  // nullopt: no device, not checked
};

// A frame that needs more memory than there is: an InputError (the CLI's exit code and message),
// told apart where a caller says it otherwise (Python raises MemoryError).
class FrameDoesNotFitError : public InputError {
 public:
  using InputError::InputError;
};

// What the host can allocate without swapping: /proc/meminfo's MemAvailable, or less when a
// cgroup (v2) limit or an address-space limit (ulimit -v) leaves less room; nullopt when
// /proc/meminfo cannot be read.
std::optional<uint64_t> host_available_bytes();
// The MemAvailable line of /proc/meminfo's text, in bytes; nullopt without one.
std::optional<uint64_t> parse_mem_available(const std::string& meminfo);

// FrameDoesNotFitError when `cost` needs more than `available` on the host or on the device, e.g.
// "a 8192x8192 frame (census-sgm, 256 disparities) needs 48.3 GiB of host memory on the cpu
// engine, but 20.1 GiB is available: use a smaller size or fewer disparities, or add pyramid
// levels".
void require_frame_fits(const FrameCost& cost, const MemoryAvailable& available, int width,
                        int height, const StereoParams& params, const std::string& engine);

// Frames slower than this get a notice before the first one.
constexpr double kSlowFrameSeconds = 3.0;
// "a 4096x4096 frame (census-sgm, 256 disparities) takes about 3.4 min on the cpu engine",
// followed by ": " and cost.slower_path when the engine gives one (then whatever the time);
// empty when cost.seconds is below kSlowFrameSeconds and there is no slower path.
std::string slow_frame_notice(const FrameCost& cost, int width, int height,
                              const StereoParams& params, const std::string& engine);

// The check of a frame loop (CLI runner, eval, bench, the viewer's processing thread): each new
// engine, size or parameter set is checked once, against the memory available at that moment.
class FrameBudget {
 public:
  // Throws FrameDoesNotFitError when the frame cannot fit (InputError for a size the engine
  // refuses outright); returns slow_frame_notice the first time a
  // combination is seen, else an empty string.
  std::string check(const StereoEngine& engine, int width, int height, const StereoParams& params);

 private:
  bool checked_ = false;
  std::string engine_;
  int width_ = 0;
  int height_ = 0;
  StereoParams params_;
  // The device memory the engine holds from the combinations checked so far: its buffers grow
  // (they are reused, not added to) for the next one, so that memory counts as available.
  uint64_t held_device_bytes_ = 0;
};

}  // namespace sv
