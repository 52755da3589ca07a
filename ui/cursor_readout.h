#pragma once

#include <string>

#include "ui/viewer_settings.h"

namespace sv {

// Where the mouse points in the image, for the readout.
struct CursorReadout {
  bool inside = false;
  int x = 0;
  int y = 0;
  float disparity = 0.0f;    // kInvalidDisparity where invalid
  float confidence = -1.0f;  // [0, 1]; negative when the result carries none
};

// "(x, y) d 12.25 px, Z 1.234 m, confidence 0.82", with the parts that are known; "(x, y)
// invalid" (plus the confidence) where no disparity survived.
std::string cursor_readout_text(const CursorReadout& cursor, const DepthCalibration& calibration);

}  // namespace sv
