#pragma once

// Real mouse input for the viewer on the test's own X server, through the XTest extension
// (libxtst, Debian's libxtst-dev): the pointer moved to window coordinates, buttons pressed and
// released, wheel steps, and the window closed as a window manager closes it. The viewer runs
// with --log-input, and each call returns only once the viewer has seen its event in a frame
// (its "input: ..." line), so a drag spans frames as a user's does, however slowly the viewer
// runs (Dear ImGui 1.86 reads the pointer once a frame: events faster than frames would merge).

#include <string>

#include "tests/support/viewer_harness.h"

struct _XDisplay;  // Xlib's Display, kept out of the tests that include this

namespace sv::test {

class ViewerInput {
 public:
  explicit ViewerInput(ViewerSuite::Running& viewer) : viewer_(viewer) {}
  ~ViewerInput();
  ViewerInput(const ViewerInput&) = delete;
  ViewerInput& operator=(const ViewerInput&) = delete;

  // Opens `display` and waits up to `timeout_s` for the viewer's window ("stereoview") to be
  // mapped. False, with `why`, when either fails.
  bool connect(const std::string& display, double timeout_s, std::string& why);

  // Each returns false when the viewer did not show the event within the time limit.
  // The pointer to (x, y) in the window's coordinates (its pixels from the top left corner).
  bool move(int x, int y);
  // Buttons: 0 left, 1 right, 2 middle (as Dear ImGui counts them).
  bool drag(int button, int x0, int y0, int x1, int y1, int steps = 6);
  bool click(int button, int x, int y);
  // One wheel step at the pointer: +1 away from the user (closer, in the 3D view), -1 towards.
  bool wheel(int direction);
  // Asks the window to close (WM_DELETE_WINDOW), as a window manager's close button does.
  void close();

 private:
  bool button(int button, bool down);
  bool seen(const std::string& state);

  ViewerSuite::Running& viewer_;
  ::_XDisplay* display_ = nullptr;
  unsigned long window_ = 0;
  int x_ = 0, y_ = 0;
  bool down_[3] = {false, false, false};
};

}  // namespace sv::test
