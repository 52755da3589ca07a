#pragma once

#include <cstdint>
#include <string>

namespace sv {

// A frame rate as the Timings window and the A/B line show it: "12.5 fps" (the number `width`
// wide, so rates line up), or "still pair" where the source is one still pair (a file of one
// frame, not live): it brings a frame only when a parameter changes, and "0.0 fps" would look
// stalled.
std::string rate_text(double frames_per_second, int64_t source_frames, bool source_live, int width = 0);

}  // namespace sv
