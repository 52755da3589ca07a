#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace sv {

// Progress of a batch run. On a terminal: one line redrawn in place with a bar, frames done /
// total, fps and ETA ("[#####.....] 50/100 frames  24.8 fps  ETA 2 s"). Elsewhere (a log, a
// pipe): a plain line at most every `line_interval_s` ("progress: 50/100 frames (50%), 24.8 fps,
// ETA 2 s"). An unknown total (-1) leaves out the bar, the percentage and the ETA.
class ProgressReporter {
 public:
  ProgressReporter(std::ostream& out, bool terminal, int64_t total, double line_interval_s = 1.0);

  void update(int64_t done);
  // The last state, always shown, ending the terminal line.
  void finish(int64_t done);

 private:
  void draw(int64_t done, bool final_line);

  std::ostream& out_;
  bool terminal_;
  int64_t total_;
  double line_interval_s_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

// True when stdout is a terminal (the progress bar is drawn on it then).
bool stdout_is_terminal();

}  // namespace sv
