// The viewer's mouse under its own Xvfb (issue 22), driven by real X input (XTest): a right-button
// drag on a 2D view draws the region whose statistics the viewer prints, a drag across the
// histogram sets the colour range to the dragged span, a click on a view pins the Cost curve to
// the pixel under the pointer, and in the 3D view a drag pans (the picture follows the pointer)
// or orbits (the top view turns) and the wheel zooms. The viewer runs with --log-input, so each
// event is sent only once the viewer has seen the one before in a frame: nothing depends on how
// fast the machine is. The positions come from a first run's placement lines (the layout depends
// only on the window size and the flags).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/region_statistics.h"
#include "src/core/synthetic_scene.h"
#include "src/core/image.h"
#include "src/io/png_io.h"
#include "tests/support/viewer_harness.h"
#include "tests/support/viewer_input.h"

namespace sv {
namespace {

constexpr int kSceneWidth = 320;
constexpr int kSceneHeight = 240;

struct Box {
  bool found = false;
  float x = 0, y = 0, w = 0, h = 0;
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

// "<what> at X Y size W H..." from the viewer's placement lines.
Box printed_box(const std::string& out, const std::string& what) {
  Box b;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(what + " at ", 0) != 0) continue;
    b.found = std::sscanf(line.c_str() + what.size(), " at %f %f size %f %f", &b.x, &b.y, &b.w,
                          &b.h) == 4;
  }
  return b;
}

std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

class ViewerMouseTest : public test::ViewerSuite {
 protected:
  static void SetUpTestSuite() {
    ViewerSuite::SetUpTestSuite();
    const SyntheticFrame frame = still_frame();
    write_png(path("still_left.png"), frame.left);
    write_png(path("still_right.png"), frame.right);
  }
  static SyntheticFrame still_frame() {
    SyntheticSceneConfig config;
    config.width = kSceneWidth;
    config.height = kSceneHeight;
    config.max_disparity = 64;
    return SyntheticScene(config).render(0);
  }
  // The still pair on the CPU engine in a 1024x640 window, and `args`.
  static std::vector<std::string> still_pair(std::vector<std::string> args) {
    std::vector<std::string> all = {"--left", path("still_left.png"), "--right",
                                    path("still_right.png"), "--engine", "cpu", "--window-size",
                                    "1024x640"};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  }

  // On a running source the views' places settle over the first frames (the Timings window grows
  // as its rows come in; a loaded machine showed three layouts by frame 3), so both runs take
  // their places at frame 6. A still pair brings one frame only (its layout settles by itself).
  static std::string settled_frame(const std::vector<std::string>& args) {
    return std::find(args.begin(), args.end(), "--left") != args.end() ? "1" : "6";
  }

  // Where things are: a run to settled_frame(), its placement lines.
  static std::string placement(const std::vector<std::string>& args) {
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--frames", settled_frame(args), "--screenshot", path("placement.png")});
    const test::ViewerRun run = run_viewer_with(all);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return run.out;
  }

  // The viewer with `args`, at settled_frame(), driven by `drive`, then closed: its
  // output (with the placement lines of the --screenshot taken on closing).
  template <typename Drive>
  static test::ViewerRun drive(const std::vector<std::string>& args, const std::string& shot,
                               Drive drive_input) {
    std::ofstream(path("ready.script")) << "at frame " << settled_frame(args) << " snapshot "
                                        << path("ready") << "\n";
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--log-input", "--screenshot", shot, "--script", path("ready.script")});
    const std::unique_ptr<Running> viewer = start_viewer(all);
    test::ViewerInput input(*viewer);
    std::string why;
    const bool ready = viewer->wait_for_log("snapshot: ", 60.0) &&
                       input.connect(server_->display(), 30.0, why);
    EXPECT_TRUE(ready) << why << test::read_all(path("err"));
    if (ready) {
      drive_input(input);
      input.close();
    }
    return viewer->finish(60.0);
  }
};

// The window pixel nearest to the centre of image pixel (ix, iy) of a view, and back: the image
// coordinates a window pixel shows.
struct ImageMapping {
  Box image;
  int window_x(int ix) const { return static_cast<int>(std::lround(image.x + (ix + 0.5f) * scale_x())); }
  int window_y(int iy) const { return static_cast<int>(std::lround(image.y + (iy + 0.5f) * scale_y())); }
  float image_x(int wx) const { return (wx - image.x) / scale_x(); }
  float image_y(int wy) const { return (wy - image.y) / scale_y(); }
  float scale_x() const { return image.w / kSceneWidth; }
  float scale_y() const { return image.h / kSceneHeight; }
};

// A right-button drag from image pixel (40, 50) to (120, 130) on the disparity view: the region
// is the pixels it touched, 81x81 from (40, 50), and its statistics are those of that rectangle
// of the engine's result.
TEST_F(ViewerMouseTest, ARightDragOnAViewDrawsTheRegionWhoseStatisticsArePrinted) {
  const std::vector<std::string> args = still_pair({"--layout", "1", "--view", "disparity"});
  const ImageMapping map{printed_box(placement(args), "view 0 disparity image")};
  ASSERT_TRUE(map.image.found);
  const int x0 = map.window_x(40), y0 = map.window_y(50), x1 = map.window_x(120), y1 = map.window_y(130);
  const test::ViewerRun run = drive(args, path("region.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.drag(1, x0, y0, x1, y1));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // The whole pixels from the press to the release (ui/viewer_app.cpp, select_region).
  const RegionRect rect{static_cast<int>(map.image_x(x0)), static_cast<int>(map.image_y(y0)),
                        static_cast<int>(std::ceil(map.image_x(x1))) - static_cast<int>(map.image_x(x0)),
                        static_cast<int>(std::ceil(map.image_y(y1))) - static_cast<int>(map.image_y(y0))};
  EXPECT_EQ(rect.x, 40);
  EXPECT_EQ(rect.y, 50);
  EXPECT_EQ(rect.width, 81);
  EXPECT_EQ(rect.height, 81);
  const SyntheticFrame frame = still_frame();
  const ImageF32 disparity = CpuEngine().compute(frame.left, frame.right, StereoParams{}).disparity;
  const RegionStatistics expected = region_statistics(disparity, rect);
  char text[160];
  std::snprintf(text, sizeof text, "region %d %d %dx%d: valid %.1f %% of %lld px", rect.x, rect.y,
                rect.width, rect.height, 100.0 * expected.valid_fraction, expected.pixels);
  EXPECT_EQ(line_starting(run.out, "region "), text) << run.out;
  std::snprintf(text, sizeof text, "disparity mean %.3f, median %.3f, std %.3f px", expected.mean,
                expected.median, expected.std_dev);
  EXPECT_EQ(line_starting(run.out, "disparity mean"), text) << run.out;
}

// A drag across the histogram from a quarter to three quarters of its width makes the colour
// range that span of its axis, fixed.
TEST_F(ViewerMouseTest, ADragAcrossTheHistogramSetsTheColourRange) {
  // A tall window: the whole histogram within the panel, unscrolled.
  const std::vector<std::string> args = still_pair({"--layout", "1", "--view", "disparity",
                                                    "--window-size", "1280x1000"});
  const std::string out = placement(args);
  const Box histogram = printed_box(out, "histogram");
  const Box panel = printed_box(out, "window panel");
  ASSERT_TRUE(histogram.found && panel.found) << out;
  float axis_lo = 0, axis_hi = 0;
  ASSERT_EQ(std::sscanf(line_starting(out, "histogram at").c_str(),
                        "histogram at %*f %*f size %*f %*f, axis %f %f", &axis_lo, &axis_hi), 2);
  const int y = static_cast<int>(histogram.y + histogram.h / 2);
  const int xa = static_cast<int>(histogram.x + histogram.w / 4);
  const int xb = static_cast<int>(histogram.x + histogram.w * 3 / 4);
  ASSERT_TRUE(panel.contains(xa, y) && panel.contains(xb, y)) << out;
  const test::ViewerRun run = drive(args, path("histogram.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.drag(0, xa, y, xb, y));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  float lo = 0, hi = 0;
  ASSERT_EQ(std::sscanf(line_starting(run.out, "histogram at").c_str(),
                        "histogram at %*f %*f size %*f %*f, axis %*f %*f, colour range %f %f", &lo,
                        &hi),
            2)
      << run.out;
  const auto value_at = [&](int x) {
    return axis_lo + (x - histogram.x) / histogram.w * (axis_hi - axis_lo);
  };
  EXPECT_NEAR(lo, value_at(xa), 0.002) << run.out;
  EXPECT_NEAR(hi, value_at(xb), 0.002) << run.out;
  EXPECT_GT(hi - lo, (axis_hi - axis_lo) / 3);  // not the full axis it started with
}

// The running scene with the Cost curve open; every frame brings the curve of the pixel wanted.
std::vector<std::string> cost_curve_args() {
  return {"--engine", "cpu", "--width", std::to_string(kSceneWidth), "--height",
          std::to_string(kSceneHeight), "--window-size", "1600x1000", "--layout", "1", "--view",
          "disparity", "--cost-curve"};
}

// Without a click the Cost curve follows the pointer: the pixel under it when the viewer closes.
TEST_F(ViewerMouseTest, TheCostCurveFollowsThePixelUnderThePointer) {
  const std::string out = placement(cost_curve_args());
  const ImageMapping map{printed_box(out, "view 0 disparity image")};
  ASSERT_TRUE(map.image.found) << out;
  const test::ViewerRun run = drive(cost_curve_args(), path("cost_curve_follows.png"),
                                    [&](test::ViewerInput& input) {
                                      EXPECT_TRUE(input.move(map.window_x(250), map.window_y(200)));
                                      EXPECT_TRUE(input.move(map.window_x(280), map.window_y(215)));
                                    });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(line_starting(run.out, "cost curve: pixel"), "cost curve: pixel (280, 215), disparities 0..63")
      << run.out;
}

// A click on a view pins the Cost curve to the pixel under the pointer: after the pointer moves
// on, the curve printed is still the clicked pixel's.
TEST_F(ViewerMouseTest, AClickOnAViewPinsTheCostCurveToThePixelUnderThePointer) {
  const std::vector<std::string> args = cost_curve_args();
  const std::string out = placement(args);
  const ImageMapping map{printed_box(out, "view 0 disparity image")};
  const Box curve_window = printed_box(out, "window Cost curve");
  ASSERT_TRUE(map.image.found && curve_window.found) << out;
  // Towards the bottom right, away from the Cost curve window over the view's top left.
  const int x = map.window_x(250), y = map.window_y(200);
  const int later_x = map.window_x(280), later_y = map.window_y(215);
  ASSERT_FALSE(curve_window.contains(x, y) || curve_window.contains(later_x, later_y)) << out;
  const test::ViewerRun run = drive(args, path("cost_curve.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.click(0, x, y));
    EXPECT_TRUE(input.move(later_x, later_y));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  char pixel[64];
  std::snprintf(pixel, sizeof pixel, "cost curve: pixel (%d, %d), disparities 0..63",
                static_cast<int>(map.image_x(x)), static_cast<int>(map.image_y(y)));
  EXPECT_EQ(line_starting(run.out, "cost curve: pixel"), pixel) << run.out;
  EXPECT_NE(line_starting(run.out, "cost curve: best d"), "") << run.out;
}

// The 3D view's point pixels in a screenshot: saturated colours away from the background (the
// depth colours, the axes and the frustum; not the grey grid and text), inside the view's cell.
struct CloudShot {
  Box cell;
  ImageRgb8 shot;
  bool point(int x, int y) const {  // cell coordinates
    const Rgb8 c = shot.at(static_cast<int>(cell.x) + x, static_cast<int>(cell.y) + y);
    const int saturation = std::max({c.r, c.g, c.b}) - std::min({c.r, c.g, c.b});
    return saturation >= 30 && std::max({c.r, c.g, c.b}) > 45;
  }
  int width() const { return static_cast<int>(cell.w); }
  // The cell's centre in the window.
  int centre_x() const { return static_cast<int>(cell.x + cell.w / 2); }
  int centre_y() const { return static_cast<int>(cell.y + cell.h / 2); }
  int height() const { return static_cast<int>(cell.h); }
};

// The share of `a`'s point pixels whose place moved by (dx, dy) is a point pixel of `b`, over
// those whose moved place lies in the cell.
double shifted_agreement(const CloudShot& a, const CloudShot& b, int dx, int dy) {
  long total = 0, same = 0;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      if (!a.point(x, y) || x + dx < 0 || y + dy < 0 || x + dx >= b.width() || y + dy >= b.height()) {
        continue;
      }
      ++total;
      same += b.point(x + dx, y + dy) ? 1 : 0;
    }
  }
  return total > 0 ? static_cast<double>(same) / total : 0.0;
}

// The most point pixels in one row and in one column.
std::pair<int, int> fullest_row_and_column(const CloudShot& s) {
  std::vector<int> rows(s.height(), 0), columns(s.width(), 0);
  for (int y = 0; y < s.height(); ++y) {
    for (int x = 0; x < s.width(); ++x) {
      if (s.point(x, y)) ++rows[y], ++columns[x];
    }
  }
  return {*std::max_element(rows.begin(), rows.end()), *std::max_element(columns.begin(), columns.end())};
}

// The root mean square distance of the point pixels from the cell's centre.
double spread(const CloudShot& s) {
  double sum = 0.0;
  long n = 0;
  for (int y = 0; y < s.height(); ++y) {
    for (int x = 0; x < s.width(); ++x) {
      if (!s.point(x, y)) continue;
      const double dx = x - s.width() / 2.0, dy = y - s.height() / 2.0;
      sum += dx * dx + dy * dy;
      ++n;
    }
  }
  return n > 0 ? std::sqrt(sum / n) : 0.0;
}

struct PrintedCamera {
  bool found = false;
  float yaw = 0, pitch = 0, distance = 0;
};

PrintedCamera printed_camera(const std::string& out) {
  PrintedCamera c;
  c.found = std::sscanf(line_starting(out, "3d camera: ").c_str(),
                        "3d camera: yaw %f pitch %f distance %f", &c.yaw, &c.pitch, &c.distance) == 3;
  return c;
}

class ViewerMouseCloudTest : public ViewerMouseTest {
 protected:
  // The still pair's cloud from the top (orthographic), coloured by depth, alone in the window.
  static std::vector<std::string> cloud_args() {
    return still_pair({"--layout", "1", "--view", "3d", "--hide-panel", "--hide-timings",
                       "--cloud-view", "top", "--point-colour", "depth"});
  }
  static CloudShot shot_of(const std::string& out, const std::string& file) {
    return CloudShot{printed_box(out, "view 0 3d cell"), read_image_rgb(file)};
  }
  // Before any input: the placement run's screenshot and camera.
  static void SetUpTestSuite() {
    ViewerMouseTest::SetUpTestSuite();
    before_out_ = new std::string(placement(cloud_args()));
  }
  static void TearDownTestSuite() {
    delete before_out_;
    before_out_ = nullptr;
    ViewerMouseTest::TearDownTestSuite();
  }
  static CloudShot shot_before() { return shot_of(*before_out_, path("placement.png")); }
  static std::string* before_out_;
};
std::string* ViewerMouseCloudTest::before_out_ = nullptr;

// A right-button drag pans: the picture follows the pointer, pixel for pixel.
TEST_F(ViewerMouseCloudTest, ARightDragPansThePictureWithThePointer) {
  const CloudShot before = shot_before();
  ASSERT_TRUE(before.cell.found) << *before_out_;
  const int cx = before.centre_x(), cy = before.centre_y();
  const test::ViewerRun run = drive(cloud_args(), path("pan.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.drag(1, cx, cy, cx + 60, cy + 40));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const CloudShot after = shot_of(run.out, path("pan.png"));
  EXPECT_GT(shifted_agreement(before, after, 60, 40), 0.9);
  EXPECT_LT(shifted_agreement(before, after, 0, 0), 0.5);
  // Turned neither way, as far as before.
  const PrintedCamera c0 = printed_camera(*before_out_), c1 = printed_camera(run.out);
  ASSERT_TRUE(c0.found && c1.found) << run.out;
  EXPECT_EQ(c1.yaw, c0.yaw);
  EXPECT_EQ(c1.pitch, c0.pitch);
  EXPECT_EQ(c1.distance, c0.distance);
}

// A left drag of 196 px across orbits by 196 * 0.008 rad, a quarter turn: from the top the cloud
// (in pixel units: 320 wide, as deep as the search range), a strip across the picture, becomes a
// strip down it.
TEST_F(ViewerMouseCloudTest, ALeftDragOrbitsAQuarterTurn) {
  const CloudShot before = shot_before();
  ASSERT_TRUE(before.cell.found) << *before_out_;
  const int cx = before.centre_x(), cy = before.centre_y();
  const test::ViewerRun run = drive(cloud_args(), path("orbit.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.drag(0, cx - 98, cy, cx + 98, cy, 14));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const PrintedCamera c0 = printed_camera(*before_out_), c1 = printed_camera(run.out);
  ASSERT_TRUE(c0.found && c1.found) << run.out;
  EXPECT_NEAR(c1.yaw, c0.yaw - 196 * 0.008f, 1e-3);
  EXPECT_EQ(c1.pitch, c0.pitch);
  const auto [rows0, columns0] = fullest_row_and_column(before);
  const auto [rows1, columns1] = fullest_row_and_column(shot_of(run.out, path("orbit.png")));
  EXPECT_GT(rows0, 2 * columns0) << "before: the strip lies across";
  EXPECT_GT(columns1, 2 * rows1) << "after: it stands";
}

// Two wheel steps towards the user zoom out: the distance grows by 1 / 0.85 each, and the
// orthographic picture shrinks by as much about the centre.
TEST_F(ViewerMouseCloudTest, TheWheelZoomsAboutTheCentre) {
  const CloudShot before = shot_before();
  ASSERT_TRUE(before.cell.found) << *before_out_;
  const int cx = before.centre_x(), cy = before.centre_y();
  const test::ViewerRun run = drive(cloud_args(), path("zoom.png"), [&](test::ViewerInput& input) {
    EXPECT_TRUE(input.move(cx, cy));
    EXPECT_TRUE(input.wheel(-1));
    EXPECT_TRUE(input.wheel(-1));
  });
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const PrintedCamera c0 = printed_camera(*before_out_), c1 = printed_camera(run.out);
  ASSERT_TRUE(c0.found && c1.found) << run.out;
  EXPECT_NEAR(c1.distance / c0.distance, 1.0 / (0.85 * 0.85), 1e-3);
  const double ratio = spread(shot_of(run.out, path("zoom.png"))) / spread(before);
  EXPECT_NEAR(ratio, 0.85 * 0.85, 0.05);
}

}  // namespace
}  // namespace sv
