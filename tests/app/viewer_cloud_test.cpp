// The viewer's 3D view under its own Xvfb (Mesa's software GL, the CPU engine), on the synthetic
// scene coloured by depth: from the top every screen row is one depth, so one colour, and the
// back wall is a line across the top of the cloud; from the side every column is one depth and
// the wall a vertical line on the far side; the camera's own view is neither. Without geometry
// (a pair with no calibration) the view says it is in pixel units.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/image.h"
#include "src/core/synthetic_scene.h"
#include "src/io/png_io.h"
#include "tests/support/viewer_harness.h"

namespace sv {
namespace {

using test::read_all;

struct Cell {
  bool found = false;
  int x = 0, y = 0, w = 0, h = 0;
};

Cell parse_cell(const std::string& out) {
  Cell c;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    float x, y, w, h;
    if (std::sscanf(line.c_str(), "view 0 3d cell at %f %f size %f %f", &x, &y, &w, &h) == 4) {
      c = {true, static_cast<int>(x), static_cast<int>(y), static_cast<int>(w), static_cast<int>(h)};
    }
  }
  return c;
}

int distance(Rgb8 a, Rgb8 b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

// The cell's pixels that show points: away from the dark background, saturated (turbo's
// colours are; the grid and the text are grey), not one of the axes' and frustum's colours.
struct CloudPixels {
  int w = 0, h = 0;
  std::vector<Rgb8> colour;
  std::vector<bool> is_point;
  bool at(int x, int y) const { return is_point[static_cast<size_t>(y) * w + x]; }
  Rgb8 colour_at(int x, int y) const { return colour[static_cast<size_t>(y) * w + x]; }
};

CloudPixels cloud_pixels(const ImageRgb8& shot, const Cell& cell) {
  CloudPixels p;
  p.w = cell.w;
  p.h = cell.h;
  const Rgb8 background{20, 20, 23};
  const Rgb8 guides[] = {{240, 220, 80}, {230, 60, 60}, {60, 220, 60}, {70, 110, 255}};
  for (int y = 0; y < cell.h; ++y) {
    for (int x = 0; x < cell.w; ++x) {
      const Rgb8 c = shot.at(cell.x + x, cell.y + y);
      const int saturation = std::max({c.r, c.g, c.b}) - std::min({c.r, c.g, c.b});
      bool point = distance(c, background) > 25 && saturation >= 30;
      for (const Rgb8& g : guides) point = point && distance(c, g) > 2;
      p.colour.push_back(c);
      p.is_point.push_back(point);
    }
  }
  return p;
}

// The share of point pixels within 24 levels of their line's median colour, over the lines
// (rows, or columns) holding at least 5 of them: 1 when each line is one colour.
double one_colour_per_line(const CloudPixels& p, bool rows) {
  long total = 0, same = 0;
  const int lines = rows ? p.h : p.w, length = rows ? p.w : p.h;
  for (int i = 0; i < lines; ++i) {
    std::vector<Rgb8> line;
    for (int j = 0; j < length; ++j) {
      const int x = rows ? j : i, y = rows ? i : j;
      if (p.at(x, y)) line.push_back(p.colour_at(x, y));
    }
    if (line.size() < 5) continue;
    Rgb8 median;
    std::array<std::vector<int>, 3> channels;
    for (const Rgb8& c : line) {
      channels[0].push_back(c.r), channels[1].push_back(c.g), channels[2].push_back(c.b);
    }
    for (auto& ch : channels) std::nth_element(ch.begin(), ch.begin() + ch.size() / 2, ch.end());
    median = {static_cast<uint8_t>(channels[0][line.size() / 2]),
              static_cast<uint8_t>(channels[1][line.size() / 2]),
              static_cast<uint8_t>(channels[2][line.size() / 2])};
    for (const Rgb8& c : line) same += distance(c, median) <= 24 ? 1 : 0;
    total += static_cast<long>(line.size());
  }
  return total > 0 ? static_cast<double>(same) / total : 0.0;
}

// Point pixels per row (rows) or column; and the first and last line holding more than 5.
struct Profile {
  std::vector<int> count;
  int first = -1, last = -1, fullest = -1;
};
Profile profile(const CloudPixels& p, bool rows) {
  Profile r;
  const int lines = rows ? p.h : p.w, length = rows ? p.w : p.h;
  for (int i = 0; i < lines; ++i) {
    int n = 0;
    for (int j = 0; j < length; ++j) n += p.at(rows ? j : i, rows ? i : j) ? 1 : 0;
    r.count.push_back(n);
    if (n > 5) {
      if (r.first < 0) r.first = i;
      r.last = i;
    }
    if (r.fullest < 0 || n > r.count[r.fullest]) r.fullest = i;
  }
  return r;
}

double coverage(const CloudPixels& p) {
  return static_cast<double>(std::count(p.is_point.begin(), p.is_point.end(), true)) /
         static_cast<double>(p.is_point.size());
}

class ViewerCloudTest : public test::ViewerSuite {
 protected:
  // The viewer in a 640x480 window with the 3D view alone; returns its stdout, empty on failure.
  static std::string run_viewer(const std::vector<std::string>& args, int* exit_code) {
    std::vector<std::string> all = {"--engine", "cpu", "--window-size", "640x480",
                                    "--hide-panel", "--hide-timings", "--view", "3d",
                                    "--frames", "2"};
    all.insert(all.end(), args.begin(), args.end());
    const test::ViewerRun run = run_viewer_with(all);
    *exit_code = run.exit_code;
    return run.out;
  }

  // The synthetic scene from `preset`, coloured by depth: the cell's point pixels.
  static CloudPixels shoot(const std::string& preset) {
    const std::string shot = path("cloud_" + preset + ".png");
    int code = -1;
    const std::string out = run_viewer({"--size", "320x240", "--cloud-view", preset,
                                        "--point-colour", "depth", "--screenshot", shot},
                                       &code);
    EXPECT_EQ(code, 0) << read_all(path("err"));
    EXPECT_NE(out.find("3d view: 3d (metres), path host upload"), std::string::npos) << out;
    // Its time per frame is measured: the host's build of the 76800 vertices at least.
    EXPECT_NE(out.find("3d timing: 76800 points, host upload: build "), std::string::npos) << out;
    const Cell cell = parse_cell(out);
    EXPECT_TRUE(cell.found) << out;
    if (code != 0 || !cell.found) return {};
    std::printf("%s: %s\n", preset.c_str(), shot.c_str());  // to look at
    return cloud_pixels(read_image_rgb(shot), cell);
  }

};

TEST_F(ViewerCloudTest, PresetViewsSeeTheSceneAlongTheirAxes) {
  const CloudPixels camera = shoot("camera");
  const CloudPixels top = shoot("top");
  const CloudPixels side = shoot("side");
  ASSERT_FALSE(camera.is_point.empty());
  ASSERT_FALSE(top.is_point.empty());
  ASSERT_FALSE(side.is_point.empty());

  // The camera's own view is the depth image: the points cover the cell, a row or a column
  // crosses many depths.
  EXPECT_GT(coverage(camera), 0.7);
  EXPECT_LT(one_colour_per_line(camera, true), 0.8);
  EXPECT_LT(one_colour_per_line(camera, false), 0.8);

  // From the top a row of the screen is one depth: one colour per row, not per column; the
  // scene covers a wedge, not the cell.
  EXPECT_GT(one_colour_per_line(top, true), 0.95);
  EXPECT_LT(one_colour_per_line(top, false), 0.5);
  EXPECT_LT(coverage(top), 0.3);
  // The back wall, the farthest plane, is a line: the fullest row, across much of the cell,
  // at the far (top) end of the cloud: within its first fifth, whichever of the moving scene's
  // frames the viewer showed (one put the wall at 16.8 %, on a loaded machine).
  const Profile top_rows = profile(top, true);
  ASSERT_GE(top_rows.first, 0);
  EXPECT_GT(top_rows.count[top_rows.fullest], top.w * 3 / 10);
  EXPECT_LT(top_rows.fullest - top_rows.first, (top_rows.last - top_rows.first) * 20 / 100);

  // From the side a column is one depth; the wall is the fullest column, on the far (right) end.
  EXPECT_GT(one_colour_per_line(side, false), 0.95);
  EXPECT_LT(one_colour_per_line(side, true), 0.5);
  const Profile side_columns = profile(side, false);
  ASSERT_GE(side_columns.first, 0);
  EXPECT_GT(side_columns.count[side_columns.fullest], side.h / 5);
  EXPECT_GT(side_columns.fullest - side_columns.first,
            (side_columns.last - side_columns.first) * 85 / 100);
}

// The header's comment line of a PLY.
std::string ply_comment(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line) && line != "end_header") {
    if (line.rfind("comment ", 0) == 0) return line.substr(8);
  }
  return "";
}

// The header's vertex count of a binary PLY; -1 when it has none.
long ply_vertex_count(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  long count = -1;
  while (std::getline(in, line) && line != "end_header") {
    std::sscanf(line.c_str(), "element vertex %ld", &count);
  }
  return count;
}

// S (a script's snapshot) with a 3D view on screen writes the cloud as shown beside the
// snapshot: every valid point when nothing hides any (the snapshot's own points.ply), fewer when
// the confidence threshold hides some.
TEST_F(ViewerCloudTest, SnapshotWritesTheShownCloud) {
  std::ofstream(path("snap.txt")) << "at frame 1 snapshot " << path("snaps") << "\n";
  // The snapshot's files of the one frame it took (the live scene's frame index varies).
  auto snapshot_counts = [&](const std::vector<std::string>& extra) {
    std::filesystem::remove_all(path("snaps"));
    std::vector<std::string> args = {"--size", "160x120", "--script", path("snap.txt")};
    args.insert(args.end(), extra.begin(), extra.end());
    int code = -1;
    run_viewer(args, &code);
    EXPECT_EQ(code, 0) << read_all(path("err"));
    std::pair<long, long> counts{-1, -1};  // cloud.ply, points.ply
    for (const auto& entry : std::filesystem::directory_iterator(path("snaps"))) {
      const std::string name = entry.path().filename();
      if (name.size() > 10 && name.substr(name.size() - 10) == "_cloud.ply") {
        counts.first = ply_vertex_count(entry.path());
        // Taken before the frame was first drawn, it is still the frame's cloud, in metres.
        EXPECT_EQ(ply_comment(entry.path()), "stereoview 3D view, metres, x right, y down, z forward");
      }
      if (name.size() > 11 && name.substr(name.size() - 11) == "_points.ply") {
        counts.second = ply_vertex_count(entry.path());
      }
    }
    return counts;
  };
  const auto [all, points] = snapshot_counts({});
  EXPECT_GT(all, 160 * 120 / 2) << read_all(path("err"));
  EXPECT_EQ(all, points);
  EXPECT_NE(read_all(path("err")).find("points of the 3D view"), std::string::npos);

  const auto [confident, points_too] =
      snapshot_counts({"--confidence", "--point-min-confidence", "0.5"});
  EXPECT_GT(confident, 0);
  EXPECT_LT(confident, points_too * 9 / 10);
}

// --record-cloud (the panel's Record clouds) writes each shown frame's cloud as a PLY; the queued
// ones are written before the viewer exits.
TEST_F(ViewerCloudTest, RecordsACloudPerShownFrame) {
  int code = -1;
  const std::string out =
      run_viewer({"--size", "160x120", "--frames", "3", "--record-cloud", path("rec")}, &code);
  ASSERT_EQ(code, 0) << read_all(path("err"));
  std::vector<long> counts;
  for (const auto& entry : std::filesystem::directory_iterator(path("rec"))) {
    if (entry.path().extension() == ".ply") counts.push_back(ply_vertex_count(entry.path()));
  }
  ASSERT_EQ(counts.size(), 3u) << read_all(path("err"));
  for (const long c : counts) EXPECT_GT(c, 160 * 120 / 2);
  EXPECT_NE(read_all(path("err")).find("3D view: recorded 3 clouds into " + path("rec") + ", 0 dropped"),
            std::string::npos)
      << read_all(path("err"));
}

// A colour change on the frame already shown (a still pair: no new frame comes) recolours the
// cloud: depth through turbo, then through gray, whose points are no longer saturated.
TEST_F(ViewerCloudTest, ColourChangeOnTheSameFrameShows) {
  SyntheticSceneConfig config;
  config.width = 160;
  config.height = 120;
  config.max_disparity = 32;
  const SyntheticFrame f = SyntheticScene(config).render(0);
  write_png(path("still_left.png"), f.left);
  write_png(path("still_right.png"), f.right);
  // Timed, so the change comes after the pair's one frame was drawn in turbo (a frame-numbered
  // event runs before its frame is drawn); the run waits for it, then ends early (--frames 2 of a
  // still pair's one frame) with the screenshot.
  std::ofstream(path("gray.txt")) << "at 3 colormap gray\n";
  const std::vector<std::string> pair = {"--left", path("still_left.png"), "--right",
                                         path("still_right.png"), "--disparities", "32",
                                         "--focal-px", "144", "--baseline-m", "0.2",
                                         "--point-colour", "depth", "--point-size", "4",
                                         "--frames", "2"};
  for (const bool gray : {false, true}) {
    std::vector<std::string> args = pair;
    args.insert(args.end(), {"--screenshot", path(gray ? "gray.png" : "turbo.png")});
    if (gray) args.insert(args.end(), {"--script", path("gray.txt")});
    int code = -1;
    const std::string out = run_viewer(args, &code);
    ASSERT_EQ(code, 0) << read_all(path("err"));
    const Cell cell = parse_cell(out);
    ASSERT_TRUE(cell.found) << out;
    const double saturated = coverage(cloud_pixels(read_image_rgb(path(gray ? "gray.png" : "turbo.png")), cell));
    if (gray) {
      EXPECT_LT(saturated, 0.02) << "the points kept their turbo colours";
    } else {
      EXPECT_GT(saturated, 0.5);
    }
  }
}

// A pair without a calibration has no geometry: the cloud is in pixel units and says so.
TEST_F(ViewerCloudTest, WithoutGeometryTheViewSaysPixelUnits) {
  SyntheticSceneConfig config;
  config.width = 160;
  config.height = 120;
  config.max_disparity = 32;
  const SyntheticFrame f = SyntheticScene(config).render(0);
  write_png(path("left.png"), f.left);
  write_png(path("right.png"), f.right);
  int code = -1;
  const std::string out = run_viewer({"--left", path("left.png"), "--right", path("right.png"),
                                      "--disparities", "32", "--point-size", "4", "--screenshot", path("pixels.png")},
                                     &code);
  EXPECT_EQ(code, 0) << read_all(path("err"));
  EXPECT_NE(out.find("3d view: 3d (pixel units: no geometry known)"), std::string::npos) << out;
  const Cell cell = parse_cell(out);
  ASSERT_TRUE(cell.found) << out;
  // Its camera view is the image again (orthographic: pixel units do not shrink with depth):
  // points from edge to edge of the image, which fills the cell's height.
  const CloudPixels p = cloud_pixels(read_image_rgb(path("pixels.png")), cell);
  const Profile rows = profile(p, true), columns = profile(p, false);
  EXPECT_GT(rows.last - rows.first, cell.h * 9 / 10);
  EXPECT_GT(columns.last - columns.first, cell.h * 4 / 3 * 9 / 10);
}

}  // namespace
}  // namespace sv
