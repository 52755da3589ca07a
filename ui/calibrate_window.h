#pragma once

#include <string>

#include "ui/calibration_session.h"
#include "ui/frame_layout.h"

namespace sv {

// What the Calibrate window edits and asks for; the app carries the requests out.
struct CalibrateWindowState {
  bool open = false;
  char board[64] = "chessboard:9x6";
  float square = 0.025f;  // metres
  float marker = 0.0f;    // ChArUco only
  int model = 0;          // 0 pinhole 5 terms, 1 pinhole 8, 2 fisheye
  char path[256] = "stereo_calibration.yaml";
  bool overwrite = false;
  std::string message;  // the last problem (a bad board, a file that exists)
  // Requests.
  bool start = false;   // begin again with the board above
  bool save = false;
  bool apply = false;
  bool apply_when_done = false;  // a scripted apply while the calibration still runs
};

// The settings of the board and model fields; InputError when they are not valid.
CalibrationSettings calibrate_settings(const CalibrateWindowState& state);

// The Calibrate window: board and model, detection state, captured views with Capture (V) and
// auto capture, coverage maps, Calibrate with its progress, the report, the vertical offset of
// the corners now (the epipolar error once the views are rectified), and Save / Apply. First
// placed at `slot`'s corner (the layout's side column, beside the views it explains).
void draw_calibrate_window(CalibrateWindowState& state, CalibrationSession& session,
                           const Rect& slot);

// The detected corners over the left and right views (green when the pair is usable, orange
// otherwise), numbered by captured-view count in the corner of each view.
void draw_detected_corners(const CalibrationSession& session, const FrameLayout& layout,
                           const std::array<ViewKind, 4>& views);

}  // namespace sv
