#pragma once

#include <cstdint>
#include <string>

namespace sv {

// A size for messages in binary units: "17 bytes", "640.0 KiB", "12.0 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace sv
