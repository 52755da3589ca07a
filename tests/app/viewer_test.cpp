// The real stereoview-viewer under its own Xvfb (Mesa's software GL, the CPU engine): it opens
// its window, shows N frames of the synthetic scene, quits and leaves a screenshot of the whole
// window, whose disparity view must show the scene's known geometry in the colormap's colours.
// File sources: a side-by-side video the test writes (a texture shifted by a known disparity),
// opened from the command line or switched to by a script; a missing file in a script leaves the
// viewer on the source it runs, on the command line it is an error; a calibration's Q gives depth
// and the epipolar lines land on their rows. A still pair the test writes is matched again after
// a scripted change. With the screenshot the viewer prints where its windows and colour bars are:
// the timings are on screen at the default size and no window covers a view.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/core/algorithm_registry.h"
#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/image_formats.h"
#include "src/core/param_table.h"
#include "src/core/synthetic_scene.h"
#include "src/io/png_io.h"
#include "src/io/recording_encoder.h"
#include "tests/support/viewer_harness.h"

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

extern char** environ;

namespace sv {
namespace {

constexpr int kSceneWidth = 320;
constexpr int kSceneHeight = 240;
constexpr int kSceneDisparity = 64;  // the viewer's default: the scene follows --disparities 64

using test::exists;
using test::read_all;
using test::shell_quote;
using test::ViewerRun;

// Where the screenshot shows the image of view 0, parsed from the viewer's stdout.
struct ViewPlacement {
  bool found = false;
  std::string kind;
  float x = 0, y = 0, w = 0, h = 0;
  int image_w = 0, image_h = 0;
  long long frame = -1;
};

ViewPlacement parse_placement(const std::string& out) {
  ViewPlacement p;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    char kind[32] = {0};
    long long frame = 0;
    int sw = 0, sh = 0;
    if (std::sscanf(line.c_str(), "screenshot %*s %dx%d, frame %lld", &sw, &sh, &frame) == 3) {
      p.frame = frame;
    }
    if (std::sscanf(line.c_str(), "view 0 %31s image at %f %f size %f %f of %dx%d", kind, &p.x,
                    &p.y, &p.w, &p.h, &p.image_w, &p.image_h) == 7) {
      p.found = true;
      p.kind = kind;
    }
  }
  return p;
}

class ViewerTest : public test::ViewerSuite {
 protected:
  // The viewer with the test scene, a 1024x640 window (`window_size`; empty: the viewer's
  // default) and `args`.
  static ViewerRun run_viewer(const std::vector<std::string>& args,
                              const std::string& window_size = "1024x640") {
    std::vector<std::string> all = {"--width", std::to_string(kSceneWidth), "--height",
                                    std::to_string(kSceneHeight)};
    if (!window_size.empty()) all.insert(all.end(), {"--window-size", window_size});
    all.insert(all.end(), args.begin(), args.end());
    return run_viewer_with(all);
  }
};

// The screenshot pixel that shows image pixel (x, y).
Rgb8 shown_pixel(const ImageRgb8& shot, const ViewPlacement& p, int x, int y) {
  const int sx = static_cast<int>(p.x + (x + 0.5f) * p.w / p.image_w);
  const int sy = static_cast<int>(p.y + (y + 0.5f) * p.h / p.image_h);
  return shot.at(sx, sy);
}

int colour_distance(Rgb8 a, Rgb8 b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

// The disparity whose colour under `map` over [0, hi] is nearest to `c` (inverse colormap).
float disparity_of_colour(Rgb8 c, Colormap map, float hi) {
  float best = 0.0f;
  int best_distance = 1 << 30;
  for (int i = 0; i <= 1000; ++i) {
    const float t = i / 1000.0f;
    const Rgb8 m = colormap_color(map, t);
    const int d = (m.r - c.r) * (m.r - c.r) + (m.g - c.g) * (m.g - c.g) + (m.b - c.b) * (m.b - c.b);
    if (d < best_distance) {
      best_distance = d;
      best = t * hi;
    }
  }
  return best;
}

struct RegionMatch {
  int sampled = 0;
  int matching = 0;
  double fraction() const { return sampled ? static_cast<double>(matching) / sampled : 0.0; }
};

// Compares the shown colour with the colour of the exact disparity at non-occluded pixels
// away from depth edges and from the left border (where no match exists), every 3rd pixel,
// restricted to ground truth within [gt_lo, gt_hi].
RegionMatch match_ground_truth(const ImageRgb8& shot, const ViewPlacement& p,
                               const SyntheticFrame& truth, Colormap map, float range_hi,
                               float gt_lo, float gt_hi, int tolerance) {
  RegionMatch match;
  for (int y = 4; y < kSceneHeight - 4; y += 3) {
    for (int x = kSceneDisparity + 8; x < kSceneWidth - 4; x += 3) {
      const float gt = truth.ground_truth.at(x, y);
      if (gt < gt_lo || gt > gt_hi) continue;
      if (!truth.nonoccluded_mask.at(x, y) || truth.discontinuity_mask.at(x, y)) continue;
      ++match.sampled;
      const Rgb8 expected = colormap_color(map, gt / range_hi);
      if (colour_distance(shown_pixel(shot, p, x, y), expected) <= tolerance) ++match.matching;
    }
  }
  return match;
}

SyntheticFrame scene_frame(long long index) {
  SyntheticSceneConfig config;
  config.width = kSceneWidth;
  config.height = kSceneHeight;
  config.max_disparity = kSceneDisparity;
  return SyntheticScene(config).render(static_cast<int>(index));
}

TEST_F(ViewerTest, ShowsTheDisparityOfTheSyntheticSceneInTheScreenshot) {
  const std::string shot_path = path("disparity.png");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "5", "--screenshot", shot_path,
                                    "--layout", "1", "--view", "disparity"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("display path: host upload"), std::string::npos) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.kind, "disparity");
  ASSERT_EQ(p.image_w, kSceneWidth);
  ASSERT_EQ(p.image_h, kSceneHeight);
  ASSERT_GE(p.frame, 0);
  const ImageRgb8 shot = read_image_rgb(shot_path);
  EXPECT_EQ(shot.width(), 1024);
  EXPECT_EQ(shot.height(), 640);
  ASSERT_TRUE(p.x >= 0 && p.y >= 0 && p.x + p.w <= shot.width() && p.y + p.h <= shot.height());

  // Not blank: the view holds many distinct colours.
  std::vector<bool> seen(1 << 15, false);
  int distinct = 0;
  for (int y = 0; y < kSceneHeight; y += 2) {
    for (int x = 0; x < kSceneWidth; x += 2) {
      const Rgb8 c = shown_pixel(shot, p, x, y);
      const int key = (c.r >> 3) << 10 | (c.g >> 3) << 5 | (c.b >> 3);
      if (!seen[key]) ++distinct;
      seen[key] = true;
    }
  }
  EXPECT_GT(distinct, 30);

  // Turbo over the search range [0, 63]: the shown colours are those of the exact disparity.
  const SyntheticFrame truth = scene_frame(p.frame);
  const RegionMatch all = match_ground_truth(shot, p, truth, Colormap::Turbo, 63.0f, 0.0f, 64.0f, 40);
  EXPECT_GT(all.sampled, 1000);
  EXPECT_GT(all.fraction(), 0.85) << all.matching << " of " << all.sampled;
  // The back wall (disparity D/10 = 6.4) in its own colour.
  const RegionMatch wall = match_ground_truth(shot, p, truth, Colormap::Turbo, 63.0f, 6.0f, 7.0f, 30);
  EXPECT_GT(wall.sampled, 300);
  EXPECT_GT(wall.fraction(), 0.9) << wall.matching << " of " << wall.sampled;

  // The ground plane's disparity grows downward: decode a column right of the post and sphere.
  const int x = kSceneWidth - 20;
  float previous = -1.0f;
  int increases = 0, rows = 0;
  for (int y = kSceneHeight - 60; y < kSceneHeight - 4; y += 8) {
    if (truth.ground_truth.at(x, y) < 12.0f) continue;  // still wall or sphere
    const float d = disparity_of_colour(shown_pixel(shot, p, x, y), Colormap::Turbo, 63.0f);
    EXPECT_NEAR(d, truth.ground_truth.at(x, y), 2.0f) << "row " << y;
    if (previous >= 0.0f && d > previous) ++increases;
    previous = d;
    ++rows;
  }
  EXPECT_GE(rows, 4);
  EXPECT_EQ(increases, rows - 1);
}

TEST_F(ViewerTest, AScriptedChangeOfColormapAndRangeShowsInTheLastFrame) {
  const std::string script = write_file("gray.script",
                                        "# switch to gray and halve the search range\n"
                                        "at frame 2 colormap gray\n"
                                        "at frame 2 set disparities = 32\n"
                                        "at frame 1 snapshot " + path("snaps") + "\n");
  const std::string shot_path = path("gray.png");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "4", "--screenshot", shot_path,
                                    "--view", "disparity", "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("script line 2 (frame 2): colormap gray"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("script line 3 (frame 2): set disparities = 32"), std::string::npos);
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  const ImageRgb8 shot = read_image_rgb(shot_path);
  const SyntheticFrame truth = scene_frame(p.frame);
  // The wall in gray over the new range [0, 31]: 255 * 6.4 / 31 = 53, not the 26 of [0, 63].
  const RegionMatch wall = match_ground_truth(shot, p, truth, Colormap::Gray, 31.0f, 6.0f, 7.0f, 8);
  EXPECT_GT(wall.sampled, 300);
  EXPECT_GT(wall.fraction(), 0.9) << wall.matching << " of " << wall.sampled;
  const RegionMatch old_range =
      match_ground_truth(shot, p, truth, Colormap::Gray, 63.0f, 6.0f, 7.0f, 8);
  EXPECT_LT(old_range.fraction(), 0.05);

  // The snapshot of the frame shown when it fired: colorized PNG, float PFM, both views.
  const auto at = run.err.find("snapshot: ");
  ASSERT_NE(at, std::string::npos) << run.err;
  const std::string png = run.err.substr(at + 10, run.err.find(' ', at + 10) - at - 10);
  ASSERT_EQ(png.substr(png.size() - 14), "_disparity.png") << png;
  const std::string stem = png.substr(0, png.size() - 14);
  const ImageF32 disparity = read_pfm(stem + "_disparity.pfm");
  EXPECT_EQ(disparity.width(), kSceneWidth);
  EXPECT_EQ(disparity.height(), kSceneHeight);
  EXPECT_EQ(read_image_rgb(png).width(), kSceneWidth);
  EXPECT_EQ(read_image_rgb(stem + "_left.png").height(), kSceneHeight);
  EXPECT_EQ(read_image_rgb(stem + "_right.png").height(), kSceneHeight);
}

// The viewer's record button, driven by a script: the lossless recording decodes back to
// disparities of the frames its sidecar names, and stopping leaves a complete sidecar.
TEST_F(ViewerTest, AScriptedRecordingDecodesToTheSceneDisparities) {
  const std::string file = path("rec") + "/d.png";
  const std::string script = write_file("record.script", "at frame 1 record lossless16 " + file +
                                                             "\nat frame 5 record stop\n");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "7", "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("recording lossless16 to " + file), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("recorded "), std::string::npos) << run.err;

  const std::string sidecar = read_all(file + ".json");
  auto number_after = [&](const std::string& key, size_t from = 0) -> long long {
    const size_t at = sidecar.find("\"" + key + "\":", from);
    if (at == std::string::npos) return -1;
    return std::atoll(sidecar.c_str() + sidecar.find(':', at) + 1);
  };
  EXPECT_NE(sidecar.find("\"complete\": true"), std::string::npos) << sidecar;
  const long long frames = number_after("frame_count");
  const long long offset = number_after("u16_offset");
  ASSERT_GE(frames, 2) << sidecar;  // frames 1..4 were on screen while it ran
  ASSERT_GE(offset, 0) << sidecar;
  EXPECT_FALSE(std::filesystem::exists(png_sequence_frame_path(file, frames)));
  size_t search = 0;
  for (long long i = 0; i < frames; ++i) {
    search = sidecar.find("\"source_index\":", search) + 1;
    const long long source_index = number_after("source_index", search - 1);
    const ImageU16 values = read_image_u16(png_sequence_frame_path(file, i));
    const SyntheticFrame truth = scene_frame(source_index);
    ASSERT_EQ(values.width(), kSceneWidth);
    int near = 0, counted = 0;
    for (int y = 0; y < values.height(); ++y) {
      for (int x = 0; x < values.width(); ++x) {
        if (truth.nonoccluded_mask.at(x, y) == 0) continue;
        ++counted;
        const double disparity = (values.at(x, y) - offset) / static_cast<double>(kDisparityScale);
        if (values.at(x, y) != 0 && std::abs(disparity - truth.ground_truth.at(x, y)) <= 1.0) ++near;
      }
    }
    EXPECT_GT(near, counted * 9 / 10) << "file frame " << i << " (source frame " << source_index << ")";
  }
}

// The confidence view: a uniform placeholder while the engine computes none, the confidence
// through inferno (with structure: sure on texture, less so elsewhere) once a script asks for it.
TEST_F(ViewerTest, TheConfidenceViewShowsTheEnginesConfidenceOnceItIsOn) {
  const auto shown_colours = [&](const std::vector<std::string>& extra, const std::string& name) {
    std::vector<std::string> args = {"--engine", "cpu", "--frames", "4", "--screenshot",
                                     path(name), "--layout", "1", "--view", "confidence"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ViewerRun run = run_viewer(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const ViewPlacement p = parse_placement(run.out);
    EXPECT_TRUE(p.found) << run.out;
    EXPECT_EQ(p.kind, "confidence");
    std::vector<Rgb8> colours;
    if (!p.found || run.exit_code != 0) return colours;
    const ImageRgb8 shot = read_image_rgb(path(name));
    // Below the view's name, drawn over the image's top rows where it fills its cell.
    for (int y = 16; y < kSceneHeight - 4; y += 5) {
      for (int x = kSceneDisparity + 8; x < kSceneWidth - 4; x += 5) {
        colours.push_back(shown_pixel(shot, p, x, y));
      }
    }
    return colours;
  };

  const std::vector<Rgb8> off = shown_colours({}, "confidence_off.png");
  ASSERT_FALSE(off.empty());
  int placeholder = 0;
  for (const Rgb8 c : off) placeholder += colour_distance(c, Rgb8{40, 40, 40}) <= 2;
  EXPECT_GT(placeholder, static_cast<int>(off.size()) * 99 / 100);

  const std::string script = write_file("confidence.script", "at frame 1 set confidence = true\n");
  const std::vector<Rgb8> on = shown_colours({"--script", script}, "confidence_on.png");
  ASSERT_FALSE(on.empty());
  int inferno = 0;
  double sum = 0.0, sum_squares = 0.0;
  for (const Rgb8 c : on) {
    const float value = disparity_of_colour(c, Colormap::Inferno, 1.0f);
    if (colour_distance(c, colormap_color(Colormap::Inferno, value)) <= 6) ++inferno;
    sum += value;
    sum_squares += value * value;
  }
  const double n = static_cast<double>(on.size());
  const double mean = sum / n, spread = std::sqrt(std::max(0.0, sum_squares / n - mean * mean));
  EXPECT_GT(inferno, static_cast<int>(n * 0.95)) << "colours outside the inferno map";
  EXPECT_GT(mean, 0.1);
  EXPECT_GT(spread, 0.03) << "a flat confidence view";
}

TEST_F(ViewerTest, SwitchingThroughEveryAlgorithmRunsCleanly) {
  std::string text;
  int frame = 1;
  for (const AlgorithmInfo& info : algorithm_registry()) {
    text += "at frame " + std::to_string(frame) + " algorithm " + info.name + "\n";
    frame += 1;
  }
  const std::string script = write_file("algorithms.script", text);
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", std::to_string(frame + 1),
                                    "--layout", "4", "--script", script, "--screenshot",
                                    path("algorithms.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const AlgorithmInfo& info : algorithm_registry()) {
    EXPECT_NE(run.err.find("algorithm " + info.name), std::string::npos) << info.name;
  }
  EXPECT_EQ(run.err.find("error"), std::string::npos) << run.err;
}

// The side-by-side test video: each view kVideoWidth x kVideoHeight (not the synthetic scene's
// size, so a screenshot tells the sources apart), the right view the left shifted by
// kVideoDisparity, a blocky gray texture that survives MJPEG, kVideoFrames frames at 10 fps.
constexpr int kVideoWidth = 256;
constexpr int kVideoHeight = 192;
constexpr int kVideoDisparity = 12;
constexpr int kVideoFrames = 8;

std::string write_shifted_sbs_video(const std::string& path) {
  cv::RNG rng(7);
  const int tex_w = kVideoWidth + kVideoDisparity;
  cv::VideoWriter writer(path, cv::CAP_FFMPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10.0,
                         cv::Size(2 * kVideoWidth, kVideoHeight), true);
  if (!writer.isOpened()) return "OpenCV cannot write MJPEG AVI to " + path;
  writer.set(cv::VIDEOWRITER_PROP_QUALITY, 100);
  for (int f = 0; f < kVideoFrames; ++f) {
    cv::Mat texture(kVideoHeight, tex_w, CV_8UC3);
    for (int y = 0; y < kVideoHeight; y += 2) {
      for (int x = 0; x < tex_w; x += 2) {
        const cv::Vec3b level = cv::Vec3b::all(static_cast<uchar>(rng.uniform(20, 236)));
        for (int dy = 0; dy < 2; ++dy) {
          for (int dx = 0; dx < 2 && x + dx < tex_w; ++dx) {
            texture.at<cv::Vec3b>(y + dy, x + dx) = level;
          }
        }
      }
    }
    // left(x) = texture(x), right(x) = texture(x + d) = left(x + d): disparity d everywhere.
    cv::Mat frame(kVideoHeight, 2 * kVideoWidth, CV_8UC3);
    texture(cv::Rect(0, 0, kVideoWidth, kVideoHeight))
        .copyTo(frame(cv::Rect(0, 0, kVideoWidth, kVideoHeight)));
    texture(cv::Rect(kVideoDisparity, 0, kVideoWidth, kVideoHeight))
        .copyTo(frame(cv::Rect(kVideoWidth, 0, kVideoWidth, kVideoHeight)));
    writer.write(frame);
  }
  return "";
}

// The share of the disparity view, away from the borders, in the colour of kVideoDisparity
// (turbo over the search range [0, 63]).
double shift_colour_fraction(const ImageRgb8& shot, const ViewPlacement& p) {
  const Rgb8 expected = colormap_color(Colormap::Turbo, kVideoDisparity / 63.0f);
  int sampled = 0, matching = 0;
  for (int y = 8; y < kVideoHeight - 8; y += 3) {
    for (int x = kVideoDisparity + 8; x < kVideoWidth - 8; x += 3) {
      ++sampled;
      if (colour_distance(shown_pixel(shot, p, x, y), expected) <= 30) ++matching;
    }
  }
  return static_cast<double>(matching) / sampled;
}

class ViewerFileTest : public ViewerTest {
 protected:
  static void SetUpTestSuite() {
    ViewerTest::SetUpTestSuite();
    video_ = path("shifted_sbs.avi");
    video_error_ = write_shifted_sbs_video(video_);
  }
  void SetUp() override {
    ViewerTest::SetUp();
    if (!video_error_.empty()) FAIL() << video_error_;
  }
  static std::string video_;
  static std::string video_error_;
};

std::string ViewerFileTest::video_;
std::string ViewerFileTest::video_error_;

TEST_F(ViewerFileTest, ASideBySideVideoFromTheCommandLineShowsItsDisparity) {
  const std::string shot_path = path("sbs.png");
  const ViewerRun run = run_viewer({"--sbs", video_, "--engine", "cpu", "--frames", "3",
                                    "--screenshot", shot_path, "--layout", "1", "--view",
                                    "disparity", "--fast"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("source: video " + video_ + " (side-by-side) 256x192"), std::string::npos)
      << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.image_w, kVideoWidth);
  EXPECT_EQ(p.image_h, kVideoHeight);
  EXPECT_GE(p.frame, 0);
  EXPECT_LT(p.frame, kVideoFrames);
  EXPECT_GT(shift_colour_fraction(read_image_rgb(shot_path), p), 0.85);
}

TEST_F(ViewerFileTest, AScriptSwitchesFromTheSyntheticSceneToTheVideo) {
  const std::string script =
      write_file("switch.script", "at frame 2 source --sbs " + video_ + "\n");
  const std::string shot_path = path("switch.png");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "5", "--screenshot", shot_path,
                                    "--layout", "1", "--view", "disparity", "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("script line 1 (frame 2): source --sbs"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("source: synthetic"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("error"), std::string::npos) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.image_w, kVideoWidth);  // the video's view, no longer the 320x240 scene
  EXPECT_GT(shift_colour_fraction(read_image_rgb(shot_path), p), 0.85);
}

TEST_F(ViewerFileTest, ASeekWhilePausedShowsTheWantedFrameNext) {
  // Pairs read before the seek (queued, or being computed) must not be the next frame shown.
  const std::string script = write_file("seek.script", "at frame 1 pause\nat frame 1 seek 6\n");
  const ViewerRun run = run_viewer({"--sbs", video_, "--engine", "cpu", "--frames", "2",
                                    "--screenshot", path("seek.png"), "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.frame, 6) << run.out;
}

// Playing as fast as it decodes, every slot between the capture thread and the engine holds a
// pair read before the seek (the capture thread's, the queue's, the fan-out's, the engine
// queue's, the one computed): none of them is the frame shown next.
TEST_F(ViewerFileTest, ASeekWhilePlayingShowsTheWantedFrameNext) {
  const std::string script = write_file("seek_playing.script", "at frame 1 seek 7\n");
  const ViewerRun run = run_viewer({"--sbs", video_, "--engine", "cpu", "--fast", "--frames", "2",
                                    "--screenshot", path("seek_playing.png"), "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.frame, 7) << run.out;
}

TEST_F(ViewerFileTest, AMissingFileInAScriptLeavesTheViewerOnItsSource) {
  const std::string script = write_file("missing.script",
                                        "at frame 2 source --sbs /nonexistent/gone.avi\n"
                                        "at frame 4 quit\n");
  const ViewerRun run = run_viewer({"--sbs", video_, "--engine", "cpu", "--script", script,
                                    "--loop"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const auto error = run.err.find("error: source: ");
  ASSERT_NE(error, std::string::npos) << run.err;
  const std::string line = run.err.substr(error, run.err.find('\n', error) - error);
  EXPECT_NE(line.find("/nonexistent/gone.avi"), std::string::npos) << line;
  EXPECT_NE(line.find("staying on the running source"), std::string::npos) << line;
  // Two more frames were shown after the failed switch: the video kept playing.
  EXPECT_NE(run.err.find("script line 2 (frame 4): quit"), std::string::npos) << run.err;
}

TEST_F(ViewerFileTest, ASourceThatCannotBeOpenedOnTheCommandLineIsAnError) {
  // A scripted run must not save a picture of another scene with success.
  const std::string shot_path = path("no_source.png");
  ViewerRun run = run_viewer({"--left", "/nonexistent/l.png", "--right", "/nonexistent/r.png",
                              "--engine", "cpu", "--frames", "2", "--screenshot", shot_path});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("stereoview-viewer: source: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("/nonexistent/l.png"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("source: synthetic"), std::string::npos) << run.err;
  EXPECT_FALSE(exists(shot_path));

  // A calibration made for another image size (the video is 256x192).
  const std::string calib = path("calib_300x200.yaml");
  {
    cv::FileStorage fs(calib, cv::FileStorage::WRITE);
    const cv::Mat k = (cv::Mat_<double>(3, 3) << 200, 0, 150, 0, 200, 100, 0, 0, 1);
    const cv::Mat t = (cv::Mat_<double>(3, 1) << -0.1, 0, 0);
    fs << "image_width" << 300 << "image_height" << 200 << "K1" << k << "D1"
       << cv::Mat::zeros(1, 5, CV_64F) << "K2" << k << "D2" << cv::Mat::zeros(1, 5, CV_64F) << "R"
       << cv::Mat::eye(3, 3, CV_64F) << "T" << t;
  }
  run = run_viewer({"--sbs", video_, "--calib", calib, "--engine", "cpu", "--frames", "2",
                    "--screenshot", shot_path});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("stereoview-viewer: source: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("300x200"), std::string::npos) << run.err;
  EXPECT_FALSE(exists(shot_path));
}

TEST_F(ViewerFileTest, ACalibrationGivesDepthAndEpipolarLinesLieOnTheirRows) {
  // Already rectified (R1 R2 P1 P2 Q only): the pairs pass through; Q says f 200 px, B 0.1.
  const std::string calib = path("calib.yaml");
  {
    cv::FileStorage fs(calib, cv::FileStorage::WRITE);
    const double cx = kVideoWidth / 2.0, cy = kVideoHeight / 2.0, f = 200.0, b = 0.1;
    const cv::Mat eye = cv::Mat::eye(3, 3, CV_64F);
    const cv::Mat p1 = (cv::Mat_<double>(3, 4) << f, 0, cx, 0, 0, f, cy, 0, 0, 0, 1, 0);
    const cv::Mat p2 = (cv::Mat_<double>(3, 4) << f, 0, cx, -f * b, 0, f, cy, 0, 0, 0, 1, 0);
    const cv::Mat q = (cv::Mat_<double>(4, 4) << 1, 0, 0, -cx, 0, 1, 0, -cy, 0, 0, 0, f, 0, 0,
                       1.0 / b, 0);
    fs << "image_width" << kVideoWidth << "image_height" << kVideoHeight << "R1" << eye << "R2"
       << eye << "P1" << p1 << "P2" << p2 << "Q" << q;
  }
  const std::string shot_path = path("lines.png");
  const ViewerRun run = run_viewer({"--sbs", video_, "--calib", calib, "--engine", "cpu",
                                    "--frames", "2", "--screenshot", shot_path, "--layout", "1",
                                    "--view", "left", "--epipolar-lines", "--fast"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("depth from the calibration: f 200.0 px, baseline 0.1 "),
            std::string::npos) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  ASSERT_EQ(p.image_h, kVideoHeight);
  const ImageRgb8 shot = read_image_rgb(shot_path);
  auto green_share = [&](int row) {
    int green = 0, sampled = 0;
    for (int x = static_cast<int>(p.x) + 2; x < static_cast<int>(p.x + p.w) - 2; x += 2) {
      ++sampled;
      const Rgb8 c = shot.at(x, row);
      if (c.g > 200 && c.r < 60 && c.b < 60) ++green;
    }
    return static_cast<double>(green) / sampled;
  };
  // Eight lines at image rows k * h / 9; the texture (gray) has no green of its own.
  for (int k = 1; k <= 8; ++k) {
    const int row = k * kVideoHeight / 9;
    const int y = static_cast<int>(p.y + (row + 0.5f) * p.h / p.image_h);
    const double best = std::max({green_share(y - 1), green_share(y), green_share(y + 1)});
    EXPECT_GT(best, 0.9) << "line " << k << " at screenshot row " << y;
    const int between = static_cast<int>(p.y + (row - kVideoHeight / 18 + 0.5f) * p.h / p.image_h);
    EXPECT_LT(green_share(between), 0.05) << "between lines, row " << between;
  }
}

TEST_F(ViewerTest, UsageErrorsExitWithCode2AndSayWhy) {
  ViewerRun run = run_viewer({"--layout", "3"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--layout must be 1, 2 or 4"), std::string::npos) << run.err;
  run = run_viewer({"--tb", "a.avi", "--sbs", "b.avi"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("one source at a time: got --tb, --sbs"), std::string::npos) << run.err;
  run = run_viewer({"--bogus", "1"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown option --bogus"), std::string::npos) << run.err;
  run = run_viewer({"--p2", "lots"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--p2"), std::string::npos) << run.err;
  const std::string script = write_file("bad.script", "at 1 set p3 = 4\n");
  run = run_viewer({"--script", script});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("bad.script:1: unknown parameter \"p3\""), std::string::npos) << run.err;
}

// A rectangle the viewer printed with its screenshot ("window Timings at X Y size W H, ..."),
// in screenshot pixels.
struct PrintedRect {
  bool found = false;
  float x = 0, y = 0, w = 0, h = 0;
  std::string note;  // what follows the size, e.g. ", content fits"
  bool overlaps(const PrintedRect& o) const {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
  bool inside(int width, int height) const {
    return x >= 0 && y >= 0 && x + w <= width + 0.5f && y + h <= height + 0.5f;
  }
};

PrintedRect printed_rect(const std::string& out, const std::string& what) {
  PrintedRect r;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(what + " at ", 0) != 0) continue;
    int used = 0;
    if (std::sscanf(line.c_str() + what.size(), " at %f %f size %f %f%n", &r.x, &r.y, &r.w, &r.h,
                    &used) == 4) {
      r.found = true;
      r.note = line.substr(what.size() + used);
    }
  }
  return r;
}

// The view images the viewer printed ("view 0 disparity image at ..."), in order.
std::vector<PrintedRect> printed_views(const std::string& out) {
  std::vector<PrintedRect> views;
  for (int i = 0; i < 4; ++i) {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      PrintedRect r;
      char kind[32];
      if (std::sscanf(line.c_str(), ("view " + std::to_string(i) + " %31s image at %f %f size %f %f").c_str(),
                      kind, &r.x, &r.y, &r.w, &r.h) == 5) {
        r.found = true;
        views.push_back(r);
      }
    }
  }
  return views;
}

TEST_F(ViewerTest, TheScreenshotMakesItsFoldersAndAPathThatCannotBeWrittenFailsBeforeTheRun) {
  const std::string shot_path = path("new/nested/folders/shot.png");
  ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "1", "--screenshot", shot_path});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_image_rgb(shot_path).width(), 1024);

  write_file("blocker", "a file where a folder should be\n");
  run = run_viewer({"--engine", "cpu", "--frames", "1", "--screenshot", path("blocker/shot.png")});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("--screenshot: cannot write"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("source: synthetic"), std::string::npos) << "the run started: " << run.err;

  // A script's snapshot folder is checked before the run too.
  const std::string script = write_file("blocked.script", "at frame 1 snapshot " + path("blocker/snaps") + "\n");
  run = run_viewer({"--engine", "cpu", "--frames", "1", "--script", script});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("blocked.script:1: snapshot"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("source: synthetic"), std::string::npos) << "the run started: " << run.err;
}

// The stereoview CLI's --window (the block-matching window) reaches the engine: the snapshot's
// disparity is the CPU engine's with a 11x11 window.
TEST_F(ViewerTest, TheBlockMatchingWindowComesFromTheCommandLine) {
  const std::string snaps = path("bm_window");
  const std::string script = write_file("bm.script", "at frame 1 snapshot " + snaps + "\n");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--algorithm", "bm-sad", "--window", "11",
                                    "--frames", "2", "--script", script});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto at = run.err.find("snapshot: ");
  ASSERT_NE(at, std::string::npos) << run.err;
  const std::string png = run.err.substr(at + 10, run.err.find(' ', at + 10) - at - 10);
  const std::string stem = png.substr(0, png.size() - 14);  // "_disparity.png"
  const ImageF32 shown = read_pfm(stem + "_disparity.pfm");
  const long long index = std::atoll(stem.substr(stem.rfind("frame_") + 6).c_str());
  const SyntheticFrame frame = scene_frame(index);
  auto agreement = [&](int window) {
    StereoParams params;
    params.algorithm = "bm-sad";
    params.window = window;
    const ImageF32 expected = CpuEngine().compute(frame.left, frame.right, params).disparity;
    int same = 0;
    for (int y = 0; y < kSceneHeight; ++y) {
      for (int x = 0; x < kSceneWidth; ++x) {
        const float a = shown.at(x, y), b = expected.at(x, y);
        same += (is_valid_disparity(a) == is_valid_disparity(b)) &&
                (!is_valid_disparity(a) || std::abs(a - b) < 1e-3f);
      }
    }
    return static_cast<double>(same) / (kSceneWidth * kSceneHeight);
  };
  EXPECT_GT(agreement(11), 0.999);
  EXPECT_LT(agreement(9), 0.99);  // the comparison can tell the windows apart
}

// A still pair written by the test (the synthetic scene's first frame as two PNG files).
class ViewerStillPairTest : public ViewerTest {
 protected:
  static void SetUpTestSuite() {
    ViewerTest::SetUpTestSuite();
    const SyntheticFrame frame = scene_frame(0);
    write_png(path("still_left.png"), frame.left);
    write_png(path("still_right.png"), frame.right);
  }
  static ViewerRun run_still(std::vector<std::string> args) {
    args.insert(args.end(), {"--left", path("still_left.png"), "--right", path("still_right.png"),
                             "--engine", "cpu", "--layout", "1", "--view", "disparity"});
    return run_viewer(args);
  }
};

// The share of the disparity view's pixels whose colour differs clearly between two screenshots.
double changed_share(const ImageRgb8& a, const ImageRgb8& b, const ViewPlacement& p) {
  int changed = 0, sampled = 0;
  for (int y = 0; y < kSceneHeight; y += 2) {
    for (int x = 0; x < kSceneWidth; x += 2) {
      ++sampled;
      changed += colour_distance(shown_pixel(a, p, x, y), shown_pixel(b, p, x, y)) > 30;
    }
  }
  return static_cast<double>(changed) / sampled;
}

TEST_F(ViewerStillPairTest, AStillPairIsMatchedAgainAfterAScriptedChange) {
  ViewerRun run = run_still({"--frames", "1", "--screenshot", path("still_default.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ViewPlacement p = parse_placement(run.out);
  ASSERT_TRUE(p.found) << run.out;
  const ImageRgb8 at_defaults = read_image_rgb(path("still_default.png"));

  // --frames counts shown frames: the pair at the defaults, then once more after the change.
  const std::string change = write_file("still_p2.script", "at frame 1 set p2 = 150\n");
  run = run_still({"--frames", "2", "--screenshot", path("still_p2.png"), "--script", change});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("shown 2 processed frames"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("ended"), std::string::npos) << run.out;
  const ImageRgb8 after_change = read_image_rgb(path("still_p2.png"));
  EXPECT_GT(changed_share(at_defaults, after_change, p), 0.01) << "the change did not show";

  // An event past the last frame the pair can bring never runs: listed, and an error exit (the
  // screenshot does not show what the script asked for). The run does not wait for it.
  const std::string past = write_file("still_past.script",
                                      "at frame 1 set p2 = 150\nat frame 4 colormap gray\n");
  run = run_still({"--frames", "3", "--screenshot", path("still_past.png"), "--script", past});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("the source ended after 2 shown frames (of --frames 3)"),
            std::string::npos) << run.out;
  EXPECT_NE(run.err.find("script line 2 (at frame 4: colormap gray) never ran"), std::string::npos)
      << run.err;
  EXPECT_LT(changed_share(after_change, read_image_rgb(path("still_past.png")), p), 0.001);
}

TEST_F(ViewerTest, TheTimingsAndRecordingWindowsAreOnScreenAndCoverNoView) {
  struct Case {
    std::string window_size;  // "" : the viewer's default, 1280x800
    int width, height;
    const char* layout;
  };
  for (const Case& c : {Case{"", 1280, 800, "2"}, Case{"", 1280, 800, "4"},
                        Case{"1900x1060", 1900, 1060, "4"}}) {
    const std::string where = std::to_string(c.width) + "x" + std::to_string(c.height) +
                              " layout " + c.layout;
    const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "2", "--layout", c.layout,
                                      "--screenshot", path("windows.png")},
                                     c.window_size);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::vector<PrintedRect> views = printed_views(run.out);
    ASSERT_EQ(views.size(), static_cast<size_t>(std::stoi(c.layout))) << run.out;
    const PrintedRect timings = printed_rect(run.out, "window Timings");
    ASSERT_TRUE(timings.found) << where << "\n" << run.out;
    EXPECT_TRUE(timings.inside(c.width, c.height)) << where << "\n" << run.out;
    EXPECT_EQ(timings.note, ", content fits") << where << "\n" << run.out;
    const PrintedRect recording = printed_rect(run.out, "window Recording");
    ASSERT_TRUE(recording.found) << where << "\n" << run.out;
    EXPECT_TRUE(recording.inside(c.width, c.height)) << where << "\n" << run.out;
    for (size_t i = 0; i < views.size(); ++i) {
      EXPECT_FALSE(timings.overlaps(views[i])) << where << ": timings over view " << i;
      EXPECT_FALSE(recording.overlaps(views[i])) << where << ": recording over view " << i;
    }
  }
}

// The Cost curve and Calibrate windows explain the views: they open beside them, not over them
// (issue 39), one under the other, and neither over the colour bar.
TEST_F(ViewerTest, TheCostCurveAndCalibrateWindowsOpenBesideTheViews) {
  write_file("calibrate_open.script", "at frame 1 calibrate open chessboard:9x6 0.03\n");
  for (const bool calibrate : {false, true}) {
    std::vector<std::string> args = {"--engine", "cpu", "--frames", "3", "--cost-curve-at", "100,80",
                                     "--screenshot", path("side.png")};
    if (calibrate) args.insert(args.end(), {"--script", path("calibrate_open.script")});
    const ViewerRun run = run_viewer(args, "");  // the viewer's own size, 1280x800
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::vector<PrintedRect> views = printed_views(run.out);
    ASSERT_EQ(views.size(), 2u) << run.out;
    std::vector<std::pair<std::string, PrintedRect>> windows = {
        {"Cost curve", printed_rect(run.out, "window Cost curve")}};
    if (calibrate) windows.push_back({"Calibrate", printed_rect(run.out, "window Calibrate")});
    const PrintedRect bar = printed_rect(run.out, "colour bar disparity");
    for (const auto& [name, window] : windows) {
      ASSERT_TRUE(window.found) << name << "\n" << run.out;
      EXPECT_TRUE(window.inside(1280, 800)) << name << "\n" << run.out;
      EXPECT_GE(window.w, 300.0f) << name << "\n" << run.out;
      for (size_t i = 0; i < views.size(); ++i) {
        EXPECT_FALSE(window.overlaps(views[i])) << name << " over view " << i << "\n" << run.out;
      }
      EXPECT_FALSE(bar.found && window.overlaps(bar)) << name << "\n" << run.out;
    }
    if (calibrate) EXPECT_FALSE(windows[0].second.overlaps(windows[1].second)) << run.out;
  }
}

TEST_F(ViewerTest, TheConfidenceViewHasAColourBarFromZeroToOne) {
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "2", "--layout", "1", "--view",
                                    "confidence", "--confidence", "--screenshot",
                                    path("confidence_bar.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const PrintedRect bar = printed_rect(run.out, "colour bar confidence");
  ASSERT_TRUE(bar.found) << run.out;
  EXPECT_FALSE(printed_rect(run.out, "colour bar disparity").found) << "no disparity view shown";
  const PrintedRect view = printed_views(run.out).at(0);
  EXPECT_FALSE(bar.overlaps(view));
  ASSERT_GT(bar.h, 100.0f);
  // The view's colours (inferno over 0..1), 1 at the top, 0 at the bottom.
  const ImageRgb8 shot = read_image_rgb(path("confidence_bar.png"));
  const int x = static_cast<int>(bar.x + 0.5f * bar.w);
  for (int k = 0; k <= 10; ++k) {
    const float expected = 1.0f - (k + 0.5f) / 11.0f;
    const int y = static_cast<int>(bar.y + (k + 0.5f) / 11.0f * bar.h);
    const Rgb8 c = shot.at(x, y);
    EXPECT_LE(colour_distance(c, colormap_color(Colormap::Inferno, disparity_of_colour(c, Colormap::Inferno, 1.0f))), 6)
        << "row " << y << " not an inferno colour";
    EXPECT_NEAR(disparity_of_colour(c, Colormap::Inferno, 1.0f), expected, 0.05) << "row " << y;
  }
}

// The engine box shows the engine that runs: after a switch to cuda it says cuda where the CUDA
// engine started, else the engine kept, with the reason cuda was refused.
TEST_F(ViewerTest, TheEngineBoxShowsTheEngineRunningAfterASwitch) {
  const std::string script = write_file("engine.script", "at frame 1 engine cuda\n");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "3", "--script", script,
                                    "--screenshot", path("engine.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto at = run.out.find("engine box ");
  ASSERT_NE(at, std::string::npos) << run.out;
  const std::string line = run.out.substr(at, run.out.find('\n', at) - at);
  if (line.find("engine box cuda, running cuda") == 0) return;  // a machine with a CUDA device
  EXPECT_EQ(line.find("engine box cpu, running cpu, cuda refused: "), 0u) << line;
}

// Issues 24 and 17: SIGINT closes the viewer as Q would: a running recording is finished, its
// sidecar says how it ended, and the exit code is 130. A parameter changed while recording is
// listed at the very frame from which the recorded disparities are those of the new value.
TEST_F(ViewerTest, SigintFinishesARecordingThatListsItsParameterChange) {
  const std::string file = path("sigint") + "/d.png";
  const std::string sidecar_path = file + ".json";
  const std::string script = write_file(
      "sigint.script", "at frame 1 record lossless16 " + file + "\nat frame 4 set p2 = 200\n");
  // Runs until the signal, sent once the recording has gone on past the change. Started
  // directly (a shell would start it with SIGINT ignored, as it does its background jobs).
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("DISPLAY", server_->display().c_str(), 1);
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(path("out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(path("err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    execl(STEREOVIEW_VIEWER_BINARY, STEREOVIEW_VIEWER_BINARY, "--width", "160", "--height", "120",
          "--window-size", "800x600", "--engine", "cpu", "--script", script.c_str(), nullptr);
    _exit(127);
  }
  for (int waited = 0; waited < 300 && !exists(sidecar_path); ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));
  kill(pid, SIGINT);
  int status = 0;
  for (int waited = 0; waited < 300 && waitpid(pid, &status, WNOHANG) == 0; ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (waitpid(pid, &status, WNOHANG) == 0) {  // still running: a hang
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const std::string err = read_all(path("err"));
  ASSERT_EQ(exit_code, 130) << err;
  EXPECT_NE(err.find("interrupted by SIGINT)"), std::string::npos) << err;

  const std::string text = read_all(sidecar_path);
  const auto number_after = [&](const std::string& key, size_t from = 0) -> long long {
    const size_t at = text.find("\"" + key + "\":", from);
    return at == std::string::npos ? -1 : std::atoll(text.c_str() + text.find(':', at) + 1);
  };
  EXPECT_NE(text.find("\"finished\": true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"stop_reason\": \"interrupted by SIGINT\""), std::string::npos) << text;
  const long long frames = number_after("frame_count");
  ASSERT_GT(frames, 3) << text;
  EXPECT_TRUE(std::filesystem::exists(png_sequence_frame_path(file, frames - 1)));
  EXPECT_FALSE(std::filesystem::exists(png_sequence_frame_path(file, frames)));

  // The change: "parameter_changes": [{"file_index": K, "parameters": {"p2": "200"}, ...}].
  const size_t changes = text.find("\"parameter_changes\":");
  ASSERT_NE(changes, std::string::npos) << text;
  const long long changed_at = number_after("file_index", changes);
  ASSERT_GT(changed_at, 0) << text;
  ASSERT_LT(changed_at, frames) << text;
  EXPECT_NE(text.find("\"p2\": \"200\"", changes), std::string::npos) << text;

  // The frames on either side of it hold the disparities of the old and of the new p2.
  StereoParams params;  // the recording's first parameters, "key": "value" in "parameters"
  const size_t listed = text.find("\"parameters\":");
  for (const ParamDescriptor& d : param_table()) {
    const size_t at = text.find("\"" + d.key + "\": \"", listed);
    const size_t begin = text.find(": \"", at) + 3;
    d.set(params, text.substr(begin, text.find('"', begin) - begin));
  }
  const long long offset = number_after("u16_offset");
  const auto source_index_of = [&](long long file_index) {
    size_t at = text.find("\"frames\":");
    for (long long i = 0; i <= file_index; ++i) at = text.find("\"source_index\":", at + 1);
    return std::atoll(text.c_str() + text.find(':', at) + 1);
  };
  const auto recorded_matches = [&](long long file_index, int p2) {
    SyntheticSceneConfig config;
    config.width = 160;
    config.height = 120;
    config.max_disparity = kSceneDisparity;
    const SyntheticFrame scene =
        SyntheticScene(config).render(static_cast<int>(source_index_of(file_index)));
    StereoParams with = params;
    with.p2 = p2;
    const DisparityResult result =
        CpuEngine().compute(to_gray(scene.left), to_gray(scene.right), with);
    const ImageU16 values = read_image_u16(png_sequence_frame_path(file, file_index));
    for (size_t i = 0; i < values.size(); ++i) {
      const int16_t fixed = result.disparity_fixed.data()[i];
      const int expected = fixed == kInvalidFixedDisparity ? 0 : fixed + offset;
      if (values.data()[i] != expected) return false;
    }
    return true;
  };
  const int old_p2 = StereoParams().p2;
  EXPECT_TRUE(recorded_matches(changed_at - 1, old_p2)) << "file frame " << changed_at - 1;
  EXPECT_FALSE(recorded_matches(changed_at - 1, 200)) << "file frame " << changed_at - 1;
  EXPECT_TRUE(recorded_matches(changed_at, 200)) << "file frame " << changed_at;
  EXPECT_FALSE(recorded_matches(changed_at, old_p2)) << "file frame " << changed_at;
}

// Issue 17/24: a FIFO as --script or --preset used to block the viewer before its window opened,
// a folder as --preset gave the defaults, and non-finite numbers passed as parameters or range.
TEST_F(ViewerTest, UnreadableScriptsAndPresetsAndNonFiniteNumbersAreUsageErrors) {
  const std::string fifo = path("viewer.fifo");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--script", fifo}, "viewer.fifo': a FIFO (named pipe), not a regular file"},
      {{"--preset", fifo}, "viewer.fifo': a FIFO (named pipe), not a regular file"},
      {{"--preset", dir_}, "a folder, not a regular file"},
      {{"--script", "/dev/zero"}, "'/dev/zero': a character device, not a regular file"},
      {{"--gamma-c", "inf"}, "is not a finite number"},
      {{"--bm-max-cost", "1e39"}, "is not a finite number"},
      {{"--range", "-inf:inf"}, "--range needs search, auto, smoothed or MIN:MAX (finite numbers"},
  };
  for (const auto& c : cases) {
    const ViewerRun run = run_viewer(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.args[0] << " " << c.args[1] << ": " << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
  }
  unlink(fifo.c_str());

  // --shader-dir names a folder of the user's: a FIFO as its vertex shader blocked the start.
  const std::string shaders = path("fifo_shaders");
  std::filesystem::create_directories(shaders);
  unlink((shaders + "/view.vert").c_str());
  ASSERT_EQ(mkfifo((shaders + "/view.vert").c_str(), 0600), 0);
  const ViewerRun run = run_viewer({"--shader-dir", shaders, "--frames", "1"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("view.vert': a FIFO (named pipe), not a regular file"), std::string::npos)
      << run.err;
}

TEST_F(ViewerTest, HelpListsTheKeysAndEveryParameter) {
  const ViewerRun run = run_viewer({"--help"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("Space pause"), std::string::npos);
  EXPECT_NE(run.out.find("--p2"), std::string::npos);
  EXPECT_NE(run.out.find("--screenshot PATH"), std::string::npos);
  EXPECT_NE(run.out.find("--swap-views"), std::string::npos);
}

// The line of `out` that starts with `prefix`, or "".
std::string line_starting(const std::string& out, const std::string& prefix) {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

bool is_outline_yellow(Rgb8 p) { return p.r > 200 && p.g > 200 && p.b < 60; }

// The histogram with its colour range, the smoothed range, a region on the back wall (outlined
// in every view, with its statistics) and the flicker, on the synthetic scene.
TEST_F(ViewerTest, TheHistogramTheRegionAndTheFlickerShowWithTheirNumbers) {
  const std::string shot_path = path("histogram_region.png");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "6", "--screenshot", shot_path,
                                    "--range", "smoothed", "--region", "270,10,40,100",
                                    "--temporal", "--layout", "2"},
                                   "1400x1000");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ImageRgb8 shot = read_image_rgb(shot_path);

  // The histogram: on screen, its bars drawn, the colour range's two white lines inside it.
  const PrintedRect histogram = printed_rect(run.out, "histogram");
  ASSERT_TRUE(histogram.found) << run.out;
  ASSERT_TRUE(histogram.inside(shot.width(), shot.height())) << run.out;
  float axis_lo = 0, axis_hi = 0, lo = 0, hi = 0;
  ASSERT_EQ(std::sscanf(histogram.note.c_str(), ", axis %f %f, colour range %f %f", &axis_lo,
                        &axis_hi, &lo, &hi), 4) << histogram.note;
  EXPECT_FLOAT_EQ(axis_lo, 0.0f);
  EXPECT_FLOAT_EQ(axis_hi, 63.0f);
  // Smoothed: the frames' 1st..99th percentile, inside the search range.
  EXPECT_GT(lo, 0.0f);
  EXPECT_LT(hi, 63.0f);
  EXPECT_GT(hi - lo, 20.0f);
  int bar_pixels = 0;
  std::vector<int> white_columns;
  const int y_mid = static_cast<int>(histogram.y + 0.5f * histogram.h);
  for (int x = static_cast<int>(histogram.x); x < static_cast<int>(histogram.x + histogram.w); ++x) {
    for (int y = static_cast<int>(histogram.y); y < static_cast<int>(histogram.y + histogram.h); ++y) {
      const Rgb8 p = shot.at(x, y);
      bar_pixels += colour_distance(p, Rgb8{20, 20, 20}) > 30;
    }
    const Rgb8 p = shot.at(x, y_mid);
    if (p.r > 240 && p.g > 240 && p.b > 240) white_columns.push_back(x);
  }
  EXPECT_GT(bar_pixels, 200);
  ASSERT_GE(white_columns.size(), 2u);
  // Where the range's ends fall on the axis (within 3 px).
  const float lo_x = histogram.x + (lo - axis_lo) / (axis_hi - axis_lo) * histogram.w;
  const float hi_x = histogram.x + (hi - axis_lo) / (axis_hi - axis_lo) * histogram.w;
  EXPECT_NEAR(white_columns.front(), lo_x, 3.0f);
  EXPECT_NEAR(white_columns.back(), hi_x, 3.0f);

  // The region: its numbers (the wall comes out flat, and matches the scene's truth) ...
  const std::string region = line_starting(run.out, "region 270 10 40x100: valid ");
  ASSERT_FALSE(region.empty()) << run.out;
  double valid = 0;
  ASSERT_EQ(std::sscanf(region.c_str(), "region 270 10 40x100: valid %lf", &valid), 1);
  EXPECT_GT(valid, 99.0);
  const std::string plane = line_starting(run.out, "plane d = ");
  const auto rms_at = plane.find("rms ");
  ASSERT_NE(rms_at, std::string::npos) << run.out;
  EXPECT_LT(std::stod(plane.substr(rms_at + 4)), 0.1) << plane;
  const std::string bad = line_starting(run.out, "bad-1 ");
  ASSERT_FALSE(bad.empty()) << run.out;
  EXPECT_LT(std::stod(bad.substr(6)), 1.0) << bad;
  EXPECT_NE(bad.find("of 4000 px with truth"), std::string::npos) << bad;
  // ... and its outline on both views, on the rectangle's left edge.
  const std::vector<PrintedRect> views = printed_views(run.out);
  ASSERT_EQ(views.size(), 2u);
  for (const PrintedRect& v : views) {
    const float edge_x = v.x + 270.0f * v.w / kSceneWidth;
    const int y = static_cast<int>(v.y + 60.0f * v.h / kSceneHeight);
    bool yellow = false;
    for (int dx = -2; dx <= 2; ++dx) yellow = yellow || is_outline_yellow(shot.at(static_cast<int>(edge_x) + dx, y));
    EXPECT_TRUE(yellow) << "no outline at x " << edge_x << " y " << y;
    // Inside the rectangle the view shows through.
    EXPECT_FALSE(is_outline_yellow(shot.at(static_cast<int>(v.x + 290.0f * v.w / kSceneWidth), y)));
  }

  // The flicker of the last frame.
  const std::string flicker = line_starting(run.out, "flicker ");
  ASSERT_FALSE(flicker.empty()) << run.out;
  EXPECT_GE(std::stod(flicker.substr(8)), 0.0);
}

// The Cost curve window pinned to a back-wall pixel (issue 22): its numbers are the engine's
// probe of that pixel (its result within a pixel of the truth), and the window shows the curves
// with the winner's line and the subpixel parabola in their colours. Opened without a pinned
// pixel, under Xvfb's never-moving pointer, it says it has none.
TEST_F(ViewerTest, CostCurveWindowShowsThePinnedPixelsCosts) {
  const std::string shot_path = path("cost_curve.png");
  const ViewerRun run = run_viewer({"--engine", "cpu", "--frames", "4", "--screenshot", shot_path,
                                    "--layout", "1", "--view", "disparity", "--cost-curve-at",
                                    "160,120"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(line_starting(run.out, "cost curve: pixel (160, 120), disparities 0..63"), "") << run.out;
  const std::string result = line_starting(run.out, "cost curve: result ");
  ASSERT_FALSE(result.empty()) << run.out;
  const ViewPlacement p = parse_placement(run.out);
  const float truth = scene_frame(p.frame).ground_truth.at(160, 120);
  EXPECT_NEAR(std::stod(result.substr(std::string("cost curve: result ").size())), truth, 1.0)
      << result;
  EXPECT_NE(line_starting(run.out, "cost curve: subpixel: parabola through "), "") << run.out;

  const PrintedRect window = printed_rect(run.out, "window Cost curve");
  ASSERT_TRUE(window.found) << run.out;
  const ImageRgb8 shot = read_image_rgb(shot_path);
  EXPECT_TRUE(window.inside(shot.width(), shot.height()));
  int green = 0, yellow = 0;
  for (int y = static_cast<int>(window.y); y < static_cast<int>(window.y + window.h); ++y) {
    for (int x = static_cast<int>(window.x); x < static_cast<int>(window.x + window.w); ++x) {
      const Rgb8 c = shot.at(x, y);
      if (c.r < 90 && c.g > 200 && c.b > 60 && c.b < 120) ++green;  // the winner's line
      if (c.r > 240 && c.g > 225 && c.b < 40) ++yellow;              // the parabola, its legend
    }
  }
  EXPECT_GT(green, 100);  // two plots' full-height lines
  EXPECT_GT(yellow, 30);

  const ViewerRun unpinned = run_viewer({"--engine", "cpu", "--frames", "2", "--screenshot",
                                         path("cost_curve_unpinned.png"), "--cost-curve"});
  ASSERT_EQ(unpinned.exit_code, 0) << unpinned.err;
  EXPECT_NE(line_starting(unpinned.out, "cost curve: no pixel yet"), "") << unpinned.out;
}

}  // namespace
}  // namespace sv
