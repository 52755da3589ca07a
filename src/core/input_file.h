#pragma once

#include <cstdint>
#include <string>

namespace sv {

// Files the user names (images, presets, scripts, calibrations). A FIFO waits for a writer and
// a device such as /dev/zero never ends, so anything but a regular file is refused before it is
// opened; what is read whole is bounded by what a real file of its kind can hold.

// The size in bytes of `path`, a regular file (symbolic links followed). InputError
// "cannot read <what> '<path>': <reason>" when it is missing or a folder, FIFO, device or socket.
uint64_t require_regular_file(const std::string& path, const std::string& what);

// The whole of a small file (preset, script, calibration text): require_regular_file, then an
// InputError giving both sizes when it holds more than `max_bytes`.
std::string read_small_file(const std::string& path, const std::string& what, uint64_t max_bytes);

}  // namespace sv
