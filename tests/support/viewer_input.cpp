#include "tests/support/viewer_input.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace sv::test {
namespace {

constexpr double kEventTimeoutS = 30.0;  // a loaded machine under a sanitizer, one frame

// The mapped window titled `title` among `root`'s children (without a window manager, as under
// a bare Xvfb, the program's window is one of them); 0 when none.
Window find_window(Display* display, Window root, const std::string& title) {
  Window root_return = 0, parent = 0;
  Window* children = nullptr;
  unsigned int count = 0;
  if (!XQueryTree(display, root, &root_return, &parent, &children, &count)) return 0;
  Window found = 0;
  for (unsigned int i = 0; i < count && found == 0; ++i) {
    char* name = nullptr;
    XWindowAttributes attributes;
    if (XFetchName(display, children[i], &name) && name) {
      if (title == name && XGetWindowAttributes(display, children[i], &attributes) &&
          attributes.map_state == IsViewable) {
        found = children[i];
      }
      XFree(name);
    }
  }
  if (children) XFree(children);
  return found;
}

// X's button number of Dear ImGui's.
unsigned int x_button(int button) { return button == 0 ? 1u : button == 1 ? 3u : 2u; }

}  // namespace

ViewerInput::~ViewerInput() {
  if (display_) XCloseDisplay(display_);
}

bool ViewerInput::connect(const std::string& display, double timeout_s, std::string& why) {
  display_ = XOpenDisplay(display.c_str());
  if (!display_) {
    why = "cannot open X display " + display;
    return false;
  }
  int event_base = 0, error_base = 0, major = 0, minor = 0;
  if (!XTestQueryExtension(display_, &event_base, &error_base, &major, &minor)) {
    why = "the X server has no XTest extension";
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < timeout_s) {
    window_ = find_window(display_, DefaultRootWindow(display_), "stereoview");
    if (window_ != 0) {
      // Where the pointer already is (a move there makes no event, so nothing to wait for).
      Window root = 0, child = 0;
      int root_x = 0, root_y = 0;
      unsigned int mask = 0;
      XQueryPointer(display_, window_, &root, &child, &root_x, &root_y, &x_, &y_, &mask);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  why = "the viewer's window did not appear";
  return false;
}

bool ViewerInput::seen(const std::string& state) {
  return viewer_.wait_for_log("input: pointer " + std::to_string(x_) + " " + std::to_string(y_) +
                                  " buttons " + std::to_string(down_[0]) + " " +
                                  std::to_string(down_[1]) + " " + std::to_string(down_[2]) + state,
                              kEventTimeoutS);
}

bool ViewerInput::move(int x, int y) {
  if (x == x_ && y == y_) return true;
  int root_x = 0, root_y = 0;
  Window child = 0;
  XTranslateCoordinates(display_, window_, DefaultRootWindow(display_), x, y, &root_x, &root_y,
                        &child);
  XTestFakeMotionEvent(display_, DefaultScreen(display_), root_x, root_y, CurrentTime);
  XSync(display_, False);
  x_ = x;
  y_ = y;
  return seen(" wheel 0");
}

bool ViewerInput::button(int button, bool down) {
  XTestFakeButtonEvent(display_, x_button(button), down ? True : False, CurrentTime);
  XSync(display_, False);
  down_[button] = down;
  return seen(" wheel 0");
}

bool ViewerInput::drag(int button, int x0, int y0, int x1, int y1, int steps) {
  if (!move(x0, y0) || !this->button(button, true)) return false;
  for (int i = 1; i <= steps; ++i) {
    if (!move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)) return false;
  }
  return this->button(button, false);
}

bool ViewerInput::click(int button, int x, int y) {
  return move(x, y) && this->button(button, true) && this->button(button, false);
}

bool ViewerInput::wheel(int direction) {
  const unsigned int button = direction > 0 ? 4u : 5u;
  XTestFakeButtonEvent(display_, button, True, CurrentTime);
  XTestFakeButtonEvent(display_, button, False, CurrentTime);
  XSync(display_, False);
  return seen(direction > 0 ? " wheel 1" : " wheel -1");
}

void ViewerInput::close() {
  XEvent event{};
  event.xclient.type = ClientMessage;
  event.xclient.window = window_;
  event.xclient.message_type = XInternAtom(display_, "WM_PROTOCOLS", False);
  event.xclient.format = 32;
  event.xclient.data.l[0] = static_cast<long>(XInternAtom(display_, "WM_DELETE_WINDOW", False));
  event.xclient.data.l[1] = CurrentTime;
  XSendEvent(display_, window_, False, NoEventMask, &event);
  XSync(display_, False);
}

}  // namespace sv::test
