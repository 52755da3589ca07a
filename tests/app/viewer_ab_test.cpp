// The viewer's A/B comparison (issue 22) under its own Xvfb, on the synthetic scene with the CPU
// engine: with the same parameters on both sides the difference view is empty; with a different
// P2 each side has its own timings and error, and the difference view shows exactly the pixels
// where the two results differ (checked against both results computed here, pixel by pixel), in
// the colours of their kind. A snapshot writes B's files and the difference beside A's; a
// recording takes the first disparity view on screen (B's, or the difference, decoded and
// compared with the two sides computed here). On a dataset folder written here each side has its
// own error against the dataset's truth, and so has the region statistics' rectangle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/disparity_difference.h"
#include "src/core/evaluation.h"
#include "src/core/image_formats.h"
#include "src/core/region_statistics.h"
#include "src/core/synthetic_scene.h"
#include "src/io/dataset_loader.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/png_io.h"
#include "src/io/recording_encoder.h"
#include "tests/support/viewer_harness.h"

namespace sv {
namespace {

constexpr int kSceneWidth = 320;
constexpr int kSceneHeight = 240;

using test::read_all;
using test::ViewerRun;

std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

// Where view 0's image lies in the screenshot, as the viewer prints it.
struct Placement {
  bool found = false;
  std::string kind;
  float x = 0, y = 0, w = 0, h = 0;
};

Placement view_placement(const std::string& out, int view) {
  Placement p;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    char kind[32] = {0};
    int index = -1, iw = 0, ih = 0;
    if (std::sscanf(line.c_str(), "view %d %31s image at %f %f size %f %f of %dx%d", &index, kind,
                    &p.x, &p.y, &p.w, &p.h, &iw, &ih) == 8 &&
        index == view) {
      p.found = true;
      p.kind = kind;
    }
  }
  return p;
}

// The counts of the printed "difference: N of M pixels (differ D, only A X, only B Y), ..." line.
struct PrintedDifference {
  long long changed = -1, pixels = -1, differ = -1, only_a = -1, only_b = -1;
};

PrintedDifference printed_difference(const std::string& out) {
  PrintedDifference d;
  const std::string line = line_starting(out, "difference: ");
  std::sscanf(line.c_str(),
              "difference: %lld of %lld pixels (differ %lld, only A %lld, only B %lld)", &d.changed,
              &d.pixels, &d.differ, &d.only_a, &d.only_b);
  return d;
}

// "A/B frame N: ..."
long long printed_ab_frame(const std::string& out) {
  long long frame = -1;
  std::sscanf(line_starting(out, "A/B frame ").c_str(), "A/B frame %lld", &frame);
  return frame;
}

double number_before(const std::string& line, const std::string& unit) {
  const size_t at = line.find(unit);
  if (at == std::string::npos) return -1.0;
  const size_t start = line.rfind(' ', at - 2);
  return std::stod(line.substr(start + 1, at - start - 1));
}

// The mean absolute difference of two pictures' channels.
double mean_abs_difference(const ImageRgb8& a, const ImageRgb8& b) {
  double sum = 0.0;
  for (size_t k = 0; k < a.size(); ++k) {
    const Rgb8 p = a.data()[k], q = b.data()[k];
    sum += std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b);
  }
  return sum / (3.0 * static_cast<double>(a.size()));
}

// A recording's sidecar: numbers after keys, and the source frame of each file frame.
struct Sidecar {
  explicit Sidecar(std::string json) : text(std::move(json)) {}
  long long number_after(const std::string& key, size_t from = 0) const {
    const size_t at = text.find("\"" + key + "\":", from);
    if (at == std::string::npos) return -1;
    return std::atoll(text.c_str() + text.find(':', at) + 1);
  }
  std::vector<long long> source_indices() const {
    std::vector<long long> sources;
    const size_t frames = text.find("\"frames\":");
    const size_t end = text.find("\"parameter_changes\":");
    for (size_t at = text.find("\"source_index\":", frames); at < end;
         at = text.find("\"source_index\":", at + 1)) {
      sources.push_back(number_after("source_index", at));
    }
    return sources;
  }
  std::string text;
};

class ViewerAbTest : public test::ViewerSuite {
 protected:
  static ViewerRun run_viewer(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--width", std::to_string(kSceneWidth), "--height",
                                    std::to_string(kSceneHeight), "--window-size", "1024x640",
                                    "--engine", "cpu"};
    all.insert(all.end(), args.begin(), args.end());
    return run_viewer_with(all);
  }
};

SyntheticFrame scene_frame(long long index) {
  SyntheticSceneConfig config;
  config.width = kSceneWidth;
  config.height = kSceneHeight;
  config.max_disparity = 64;
  return SyntheticScene(config).render(static_cast<int>(index));
}

// What kind of difference a shown colour is (the ramp of differing pixels has no other colour
// near it); -1 for none of them.
int kind_of_colour(Rgb8 c) {
  auto near = [&](Rgb8 k) {
    return std::abs(c.r - k.r) <= 3 && std::abs(c.g - k.g) <= 3 && std::abs(c.b - k.b) <= 3;
  };
  if (near(kDifferenceEqualColor)) return static_cast<int>(DifferenceKind::Equal);
  if (near(kDifferenceBothInvalidColor)) return static_cast<int>(DifferenceKind::BothInvalid);
  if (near(kDifferenceOnlyAColor)) return static_cast<int>(DifferenceKind::OnlyA);
  if (near(kDifferenceOnlyBColor)) return static_cast<int>(DifferenceKind::OnlyB);
  // Dark red to yellow: red high, blue low, green between.
  if (c.r >= kDifferenceSmallColor.r - 3 && c.b <= kDifferenceLargeColor.b + 3 && c.g <= c.r) {
    return static_cast<int>(DifferenceKind::Differ);
  }
  return -1;
}

// The image pixels of the difference view below its legend (name and four lines of text), every
// other one, as the screenshot shows them: each with the kind its colour says.
struct ShownKinds {
  int sampled = 0;
  int counts[5] = {0, 0, 0, 0, 0};
  int unknown = 0;
  int mismatched = 0;  // against `expected`, when given
};

ShownKinds shown_kinds(const ImageRgb8& shot, const Placement& p, const ImageU8* expected) {
  ShownKinds k;
  const float legend_bottom = p.y + 6 * 20.0f;
  for (int y = 0; y < kSceneHeight; y += 2) {
    for (int x = 0; x < kSceneWidth; x += 2) {
      const int sx = static_cast<int>(p.x + (x + 0.5f) * p.w / kSceneWidth);
      const int sy = static_cast<int>(p.y + (y + 0.5f) * p.h / kSceneHeight);
      if (sy < legend_bottom) continue;
      ++k.sampled;
      const int kind = kind_of_colour(shot.at(sx, sy));
      if (kind < 0) {
        ++k.unknown;
        continue;
      }
      ++k.counts[kind];
      if (expected && expected->at(x, y) != kind) ++k.mismatched;
    }
  }
  return k;
}

TEST_F(ViewerAbTest, WithTheSameParametersOnBothSidesTheDifferenceViewIsEmpty) {
  const std::string shot_path = path("same.png");
  std::ofstream(path("same.script")) << "at frame 1 ab on\nat frame 1 ab view difference\n";
  const ViewerRun run =
      run_viewer({"--frames", "5", "--screenshot", shot_path, "--script", path("same.script")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("error:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("A/B: B on "), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("B is behind"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("A/B frame "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(": same parameters"), std::string::npos) << run.out;
  const PrintedDifference d = printed_difference(run.out);
  EXPECT_EQ(d.pixels, kSceneWidth * kSceneHeight) << run.out;
  EXPECT_EQ(d.changed, 0) << run.out;
  EXPECT_EQ(d.differ, 0);
  EXPECT_EQ(d.only_a, 0);
  EXPECT_EQ(d.only_b, 0);

  const Placement p = view_placement(run.out, 0);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.kind, "difference");
  const ImageRgb8 shot = read_image_rgb(shot_path);
  const ShownKinds k = shown_kinds(shot, p, nullptr);
  EXPECT_GT(k.sampled, 10000);
  EXPECT_EQ(k.unknown, 0);
  EXPECT_EQ(k.counts[static_cast<int>(DifferenceKind::Differ)], 0);
  EXPECT_EQ(k.counts[static_cast<int>(DifferenceKind::OnlyA)], 0);
  EXPECT_EQ(k.counts[static_cast<int>(DifferenceKind::OnlyB)], 0);
  EXPECT_GT(k.counts[static_cast<int>(DifferenceKind::Equal)], k.sampled / 2);
}

TEST_F(ViewerAbTest, WithADifferentP2EachSideHasItsTimingsAndTheDifferenceShowsWhereTheyDiffer) {
  const std::string shot_path = path("p2.png");
  const std::string snaps = path("snaps");
  std::ofstream(path("p2.script")) << "at frame 4 snapshot " << snaps << "\n";
  // Without hole filling, so that pixels one side invalidates and the other keeps show too.
  const ViewerRun run =
      run_viewer({"--frames", "5", "--screenshot", shot_path, "--no-fill-holes", "--compare-set",
                  "p2=200", "--view", "difference", "--script", path("p2.script")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("error:"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find(": p2 40 -> 200"), std::string::npos) << run.out;

  // Each side's own time and error against the scene's ground truth.
  const std::string a = line_starting(run.out, "A: ");
  const std::string b = line_starting(run.out, "B: ");
  ASSERT_FALSE(a.empty()) << run.out;
  ASSERT_FALSE(b.empty()) << run.out;
  EXPECT_GT(number_before(a, "ms"), 0.0) << a;
  EXPECT_GT(number_before(b, "ms"), 0.0) << b;
  EXPECT_GE(number_before(a, "%, bad-2"), 0.0) << a;
  EXPECT_GE(number_before(b, "%, bad-2"), 0.0) << b;
  EXPECT_EQ(a.find("(frame"), std::string::npos) << a;  // the errors are of the pair shown

  // The difference, counted in the viewer, equals the difference of the two results computed
  // here for the same frame.
  const long long frame = printed_ab_frame(run.out);
  ASSERT_GE(frame, 0) << run.out;
  const SyntheticFrame scene = scene_frame(frame);
  StereoParams pa;
  pa.fill_holes = false;
  StereoParams pb = pa;
  pb.p2 = 200;
  const ImageF32 da = CpuEngine().compute(scene.left, scene.right, pa).disparity;
  const ImageF32 db = CpuEngine().compute(scene.left, scene.right, pb).disparity;
  const DisparityDifference expected = disparity_difference(da, db);
  const PrintedDifference d = printed_difference(run.out);
  EXPECT_EQ(d.changed, expected.counts.changed()) << run.out;
  EXPECT_EQ(d.differ, expected.counts.differ);
  EXPECT_EQ(d.only_a, expected.counts.only_a);
  EXPECT_EQ(d.only_b, expected.counts.only_b);
  // P2 200 against 40 changes a good part, and some pixels only one side keeps.
  EXPECT_GT(expected.counts.differ, 1000);
  EXPECT_GT(expected.counts.only_a, 50);
  EXPECT_GT(expected.counts.only_b, 50);

  // ... and the view shows each pixel in the colour of its kind.
  const Placement p = view_placement(run.out, 0);
  ASSERT_TRUE(p.found) << run.out;
  EXPECT_EQ(p.kind, "difference");
  const ImageRgb8 shot = read_image_rgb(shot_path);
  const ShownKinds k = shown_kinds(shot, p, &expected.kind);
  EXPECT_GT(k.sampled, 10000);
  EXPECT_EQ(k.unknown, 0);
  EXPECT_LT(k.mismatched, k.sampled / 200) << k.mismatched << " of " << k.sampled;
  EXPECT_GT(k.counts[static_cast<int>(DifferenceKind::Differ)], 200);
  EXPECT_GT(k.counts[static_cast<int>(DifferenceKind::OnlyA)], 5);
  EXPECT_GT(k.counts[static_cast<int>(DifferenceKind::OnlyB)], 5);
  // The legend is one framed dark box, under the view's name, above the pixels checked above
  // (issue 39: it had no backdrop of its own).
  struct {
    float x = 0, y = 0, w = 0, h = 0;
  } legend;
  ASSERT_EQ(std::sscanf(line_starting(run.out, "legend A/B at ").c_str(), "legend A/B at %f %f size %f %f",
                        &legend.x, &legend.y, &legend.w, &legend.h),
            4)
      << run.out;
  EXPECT_LT(legend.y + legend.h, p.y + 6 * 20.0f) << run.out;
  const int x0 = static_cast<int>(legend.x), x1 = static_cast<int>(legend.x + legend.w) - 1;
  const int y0 = static_cast<int>(legend.y), y1 = static_cast<int>(legend.y + legend.h) - 1;
  for (const Rgb8 corner : {shot.at(x0, y0), shot.at(x1, y0), shot.at(x0, y1), shot.at(x1, y1)}) {
    EXPECT_GT(corner.r, 90);  // the frame
    EXPECT_NEAR(corner.r, corner.g, 40);
  }
  const Rgb8 inside = shot.at(x1 - 2, y1 - 2);  // right of the text, above the last line's bottom
  EXPECT_LT(inside.r + inside.g + inside.b, 3 * 60);

  // The snapshot took B's disparity and the difference as shown beside A's files.
  const auto snapshot_frame = [&](const std::string& folder) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 20 && name.compare(name.size() - 14, 14, "_disparity.pfm") == 0) {
        return std::atoll(name.substr(6).c_str());
      }
    }
    return -1LL;
  };
  ASSERT_TRUE(std::filesystem::is_directory(snaps + "/b")) << run.err;
  const long long snapped = snapshot_frame(snaps + "/b");
  ASSERT_GE(snapped, 0);
  char snap_stem[64];
  std::snprintf(snap_stem, sizeof snap_stem, "/frame_%06lld_", snapped);
  const SyntheticFrame snapped_scene = scene_frame(snapped);
  const ImageF32 b_expected =
      CpuEngine().compute(snapped_scene.left, snapped_scene.right, pb).disparity;
  const ImageF32 b_written = read_pfm(snaps + "/b" + snap_stem + "disparity.pfm");
  ASSERT_TRUE(b_written.same_size(b_expected));
  long long agree = 0;
  for (size_t i = 0; i < b_written.size(); ++i) {
    const float x = b_written.data()[i], y = b_expected.data()[i];
    agree += is_valid_disparity(x) == is_valid_disparity(y) &&
             (!is_valid_disparity(x) || std::abs(x - y) < 1e-3f);
  }
  EXPECT_GT(static_cast<double>(agree) / b_written.size(), 0.999);
  const ImageRgb8 difference = read_image_rgb(snaps + snap_stem + "difference.png");
  EXPECT_EQ(difference.width(), kSceneWidth);
  EXPECT_EQ(difference.height(), kSceneHeight);
}

// Copying one side to the other makes them equal: B to A gives A B's algorithm.
TEST_F(ViewerAbTest, CopyingASideToTheOtherLeavesNoDifference) {
  for (const char* direction : {"a-to-b", "b-to-a"}) {
    SCOPED_TRACE(direction);
    std::ofstream(path("copy.script")) << "at frame 2 ab copy " << direction << "\n";
    const ViewerRun run = run_viewer({"--frames", "5", "--compare-set", "algorithm=bm-sad",
                                      "--script", path("copy.script"), "--screenshot",
                                      path("copy.png")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find(std::string("A/B: copied ") + (direction[0] == 'a' ? "A to B" : "B to A")),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.out.find(": same parameters"), std::string::npos) << run.out;
    EXPECT_EQ(printed_difference(run.out).changed, 0) << run.out;
    const std::string algorithm = direction[0] == 'a' ? "census-sgm" : "bm-sad";
    EXPECT_NE(line_starting(run.out, "A: ").find(", " + algorithm + ","), std::string::npos) << run.out;
    EXPECT_NE(line_starting(run.out, "B: ").find(", " + algorithm + ","), std::string::npos) << run.out;
  }
}

// The A and B lines of a dataset pair's run give each side's bad-1 and bad-2 over the dataset's
// non-occluded pixels, equal (to the 0.01 printed) to evaluate_disparity of the results of `pa`
// and `pb` computed here, and the two differ.
void expect_each_sides_errors(const std::string& out, const StereoSample& sample,
                              const StereoParams& pa, const StereoParams& pb) {
  const ImageF32 da = CpuEngine().compute(sample.left, sample.right, pa).disparity;
  const ImageF32 db = CpuEngine().compute(sample.left, sample.right, pb).disparity;
  const DisparityEvaluation ea = evaluate_disparity(da, sample.ground_truth, sample.masks);
  const DisparityEvaluation eb = evaluate_disparity(db, sample.ground_truth, sample.masks);
  ASSERT_NE(ea.find("nonocc"), nullptr);
  const std::string a = line_starting(out, "A: ");
  const std::string b = line_starting(out, "B: ");
  ASSERT_FALSE(a.empty()) << out;
  ASSERT_FALSE(b.empty()) << out;
  EXPECT_NEAR(number_before(a, "%, bad-2"), ea.find("nonocc")->bad_1, 0.006) << a;
  EXPECT_NEAR(number_before(b, "%, bad-2"), eb.find("nonocc")->bad_1, 0.006) << b;
  EXPECT_NEAR(number_before(a, "%, valid"), ea.find("nonocc")->bad_2, 0.006) << a;
  EXPECT_NEAR(number_before(b, "%, valid"), eb.find("nonocc")->bad_2, 0.006) << b;
  EXPECT_NE(ea.find("nonocc")->bad_1, eb.find("nonocc")->bad_1);  // P2 shows in the error
  EXPECT_EQ(a.find("(frame"), std::string::npos) << a;  // the errors are of the pair shown
}

// A dataset with ground truth (Middlebury 2014's layout, written here from the scene's frame 3,
// with an occlusion mask and a strip of unknown truth): each side shows its own bad-1 and bad-2
// over the non-occluded pixels, equal to what evaluate_disparity (as `stereoview eval`) gives
// for the two results computed here, and the region statistics give bad-1 / bad-2 over the
// rectangle's pixels with truth.
TEST_F(ViewerAbTest, OnADatasetEachSideShowsItsErrorAgainstTheDatasetsTruth) {
  const std::string dataset = path("dataset");
  std::filesystem::create_directories(dataset);
  const SyntheticFrame scene = scene_frame(3);
  ImageF32 truth = scene.ground_truth;
  for (int y = 0; y < kSceneHeight; ++y) {
    for (int x = 100; x < 110; ++x) truth.at(x, y) = std::numeric_limits<float>::infinity();
  }
  write_png(dataset + "/im0.png", scene.left);
  write_png(dataset + "/im1.png", scene.right);
  write_pfm(dataset + "/disp0GT.pfm", truth);
  write_png(dataset + "/mask0nocc.png", scene.nonoccluded_mask);
  const RegionRect rect{90, 60, 60, 80};  // across the unknown strip
  const ViewerRun run = run_viewer({"--dataset", dataset, "--frames", "1", "--screenshot",
                                    path("dataset.png"), "--compare-set", "p2=200", "--region",
                                    "90,60,60,80"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("error:"), std::string::npos) << run.err;

  // The results computed here from the pair as the loader reads it, evaluated as eval does.
  const std::vector<StereoSample> samples = load_dataset(dataset);
  ASSERT_EQ(samples.size(), 1u);
  StereoParams pa;
  StereoParams pb = pa;
  pb.p2 = 200;
  expect_each_sides_errors(run.out, samples[0], pa, pb);
  const ImageF32 da = CpuEngine().compute(samples[0].left, samples[0].right, pa).disparity;
  const RegionStatistics expected = region_statistics(da, rect, 0.0, 0.0, &samples[0].ground_truth);
  EXPECT_EQ(expected.truth_pixels, 50LL * 80);  // the unknown strip is left out
  char line[128];
  std::snprintf(line, sizeof line, "bad-1 %.2f %%, bad-2 %.2f %% of %lld px with truth",
                expected.bad_1, expected.bad_2, expected.truth_pixels);
  EXPECT_NE(run.out.find(line), std::string::npos) << line << "\n" << run.out;
}

// The same on a real dataset, the shared data's Middlebury 2003 teddy (skipped without it;
// STEREO_DATA_DIR names another copy).
TEST_F(ViewerAbTest, OnMiddleburyTeddyEachSideShowsItsErrorAgainstItsTruth) {
  const char* env = std::getenv("STEREO_DATA_DIR");
  const std::string teddy = std::string(env ? env : STEREO_DATA_DIR_DEFAULT) + "/middlebury2003/teddy";
  if (!std::filesystem::is_directory(teddy)) GTEST_SKIP() << "no shared data at " << teddy;
  const ViewerRun run = run_viewer({"--dataset", teddy, "--frames", "1", "--screenshot",
                                    path("teddy.png"), "--compare-set", "p2=200"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<StereoSample> samples = load_dataset(teddy);
  ASSERT_EQ(samples.size(), 1u);
  StereoParams pa;
  StereoParams pb = pa;
  pb.p2 = 200;
  expect_each_sides_errors(run.out, samples[0], pa, pb);
}

// "Recording and snapshots take the shown view": with B's disparity the first view, a recording
// holds B's results, not A's.
TEST_F(ViewerAbTest, ARecordingTakesBWhenItsViewComesFirst) {
  const std::string file = path("rec_b") + "/d.png";
  std::ofstream(path("rec.script")) << "at frame 1 record lossless16 " << file
                                    << "\nat frame 9 record stop\n";
  const ViewerRun run = run_viewer({"--frames", "11", "--compare-set", "algorithm=bm-sad",
                                    "--view", "disparity-b", "--script", path("rec.script")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("recorded "), std::string::npos) << run.err;
  const Sidecar sidecar(read_all(file + ".json"));
  EXPECT_NE(sidecar.text.find("\"complete\": true"), std::string::npos) << sidecar.text;
  EXPECT_NE(sidecar.text.find("bm-sad"), std::string::npos) << sidecar.text;  // B's parameters
  const std::vector<long long> sources = sidecar.source_indices();
  const long long offset = sidecar.number_after("u16_offset");
  // B runs on its own thread and skips pairs while busy, so how many of A's frames it matched
  // depends on the machine's load (one under ASan on a loaded CI machine); each one it recorded
  // must be B's.
  ASSERT_GE(sources.size(), 1u) << sidecar.text;
  ASSERT_GE(offset, 0) << sidecar.text;
  StereoParams pa;
  StereoParams pb = pa;
  pb.algorithm = "bm-sad";
  for (size_t i = 0; i < sources.size(); ++i) {
    const long long source_index = sources[i];
    const ImageU16 values = read_image_u16(png_sequence_frame_path(file, static_cast<int64_t>(i)));
    const SyntheticFrame scene = scene_frame(source_index);
    // The fraction of pixels whose recorded value is that of `expected` (1/16 px, 0: invalid).
    auto agreement = [&](const StereoParams& params) {
      const ImageI16 expected = CpuEngine().compute(scene.left, scene.right, params).disparity_fixed;
      long long same = 0;
      for (size_t k = 0; k < values.size(); ++k) {
        const int16_t e = expected.data()[k];
        const int want = is_valid_fixed_disparity(e) ? e + offset : 0;
        same += values.data()[k] == want;
      }
      return static_cast<double>(same) / static_cast<double>(values.size());
    };
    EXPECT_GT(agreement(pb), 0.999) << "file frame " << i << " (source frame " << source_index << ")";
    EXPECT_LT(agreement(pa), 0.9) << "file frame " << i;
  }
}


// With the difference view first on screen a recording takes the difference (the sidecar says
// "view": "difference"): lossless16 holds |A - B| in the disparity encoding where both sides
// are valid and 0 where at most one is, the colour format the view's colours; each decoded
// frame equals the difference of the two sides computed here for its source frame.
TEST_F(ViewerAbTest, ARecordingTakesTheDifferenceWhenItsViewComesFirst) {
  StereoParams pa;
  StereoParams pb = pa;
  pb.algorithm = "bm-sad";
  const auto difference_of = [&](long long source_index) {
    const SyntheticFrame scene = scene_frame(source_index);
    return disparity_difference(CpuEngine().compute(scene.left, scene.right, pa).disparity,
                                CpuEngine().compute(scene.left, scene.right, pb).disparity);
  };
  for (const std::string format : {"lossless16", "color"}) {
    SCOPED_TRACE(format);
    const std::string file = path("rec_difference") + (format == "color" ? "/d.mkv" : "/d.png");
    std::ofstream(path("rec.script")) << "at frame 1 record " << format << " " << file
                                      << "\nat frame 9 record stop\n";
    const ViewerRun run = run_viewer({"--frames", "11", "--compare-set", "algorithm=bm-sad",
                                      "--view", "difference", "--script", path("rec.script")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Sidecar sidecar(read_all(file + ".json"));
    EXPECT_NE(sidecar.text.find("\"complete\": true"), std::string::npos) << sidecar.text;
    EXPECT_NE(sidecar.text.find("\"view\": \"difference\""), std::string::npos) << sidecar.text;
    EXPECT_NE(sidecar.text.find("\"scale_px\": 4.0"), std::string::npos) << sidecar.text;
    const std::vector<long long> sources = sidecar.source_indices();
    // B skips pairs while busy: at least one pair both computed was recorded.
    ASSERT_GE(sources.size(), 1u) << sidecar.text;
    if (format == "lossless16") {
      const long long offset = sidecar.number_after("u16_offset");
      ASSERT_GE(offset, 0) << sidecar.text;
      for (size_t i = 0; i < sources.size(); ++i) {
        const ImageU16 values = read_image_u16(png_sequence_frame_path(file, static_cast<int64_t>(i)));
        const DisparityDifference d = difference_of(sources[i]);
        const ImageI16 expected = difference_fixed(d);
        long long same = 0;
        for (size_t k = 0; k < values.size(); ++k) {
          const int16_t e = expected.data()[k];
          same += values.data()[k] == (is_valid_fixed_disparity(e) ? e + offset : 0);
        }
        EXPECT_EQ(same, static_cast<long long>(values.size())) << "file frame " << i;
        EXPECT_GT(d.counts.differ, 1000);  // bm-sad against census-sgm: much differs
      }
    } else {
      FfmpegVideoReader reader(file, FfmpegVideoReader::Pixels::Rgb8);
      for (size_t i = 0; i < sources.size(); ++i) {
        const std::optional<FfmpegVideoReader::Frame> frame = reader.read();
        ASSERT_TRUE(frame) << "file frame " << i;
        const ImageRgb8 expected = colorize_difference(difference_of(sources[i]), 4.0f);
        const SyntheticFrame scene = scene_frame(sources[i]);
        const ImageRgb8 a_colours =
            colorize_disparity(CpuEngine().compute(scene.left, scene.right, pa).disparity, 0.0f,
                               63.0f, Colormap::Turbo);
        ASSERT_TRUE(frame->rgb.same_size(expected));
        // H.264 in 4:2:0 blurs the colours a little (the difference's scattered pixels most),
        // far less than the distance to what recording A would have written.
        const double error = mean_abs_difference(frame->rgb, expected);
        EXPECT_LT(error, 10.0) << "file frame " << i;
        EXPECT_LT(error, mean_abs_difference(frame->rgb, a_colours) / 4.0) << "file frame " << i;
      }
    }
  }
}

}  // namespace
}  // namespace sv
