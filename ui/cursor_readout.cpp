#include "ui/cursor_readout.h"

#include <cstdio>

#include "src/core/disparity.h"

namespace sv {

std::string cursor_readout_text(const CursorReadout& cursor, const DepthCalibration& calibration) {
  char text[160];
  int n = std::snprintf(text, sizeof text, "(%d, %d)", cursor.x, cursor.y);
  const auto append = [&](const char* format, auto... values) {
    if (n >= 0 && n < static_cast<int>(sizeof text)) {
      n += std::snprintf(text + n, sizeof text - n, format, values...);
    }
  };
  if (!is_valid_disparity(cursor.disparity)) {
    append(" invalid");
  } else {
    append(" d %.2f px", cursor.disparity);
    if (calibration.known()) append(", Z %.3f m", calibration.depth_m(cursor.disparity));
  }
  if (cursor.confidence >= 0.0f) append(", confidence %.2f", cursor.confidence);
  return text;
}

}  // namespace sv
