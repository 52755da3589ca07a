#include "ui/rate_text.h"

#include <cstdio>

namespace sv {

std::string rate_text(double frames_per_second, int64_t source_frames, bool source_live, int width) {
  if (source_frames == 1 && !source_live) return "still pair";
  char text[48];
  std::snprintf(text, sizeof text, "%*.1f fps", width, frames_per_second);
  return text;
}

}  // namespace sv
