// The viewer's logic that needs no display: its command line (every parameter flag of the
// stereoview CLI, the same way), its --help text (run as the real binary), the checks of output
// paths, the engine box's state against a real processing thread, the script's progress and the
// window layout (nothing covers the views, the timings are on screen).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "src/app/cli_options.h"
#include "src/app/processing_thread.h"
#include "src/core/error.h"
#include "src/core/param_table.h"
#include "tests/app/process_runner.h"
#include "src/core/disparity.h"
#include "ui/colour_range_tracker.h"
#include "ui/elided_path.h"
#include "ui/engine_choice.h"
#include "ui/rate_text.h"
#include "ui/region_probe.h"
#include "ui/frame_layout.h"
#include "src/app/help_table.h"
#include "src/core/output_folders.h"
#include "ui/output_paths.h"
#include "ui/script_run.h"
#include "ui/viewer_options.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

using test::make_temp_dir;

ViewerOptions parse_viewer(std::vector<std::string> args) {
  args.insert(args.begin(), "stereoview-viewer");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_viewer_options(static_cast<int>(argv.size()), argv.data());
}

CliOptions parse_stereoview(std::vector<std::string> args) {
  args.insert(args.begin(), "stereoview");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_cli(static_cast<int>(argv.size()), argv.data());
}

// A value of `d` other than its default that validate() accepts on its own.
std::string other_valid_value(const ParamDescriptor& d) {
  const StereoParams defaults;
  const std::string current = d.get(defaults);
  std::vector<std::string> candidates;
  switch (d.kind) {
    case ParamKind::Choice: candidates = d.choices; break;
    case ParamKind::Bool: candidates = {"true", "false"}; break;
    case ParamKind::Int:
      for (int v = static_cast<int>(d.min); v <= static_cast<int>(d.max); ++v) {
        candidates.push_back(std::to_string(v));
      }
      break;
    case ParamKind::Float:
      for (double v : {d.max, d.min, 0.5 * (d.min + d.max), 0.25 * (d.min + d.max)}) {
        std::ostringstream text;
        text << v;
        candidates.push_back(text.str());
      }
      break;
  }
  for (const std::string& value : candidates) {
    StereoParams params;
    set_param(params, d.key, value);
    if (d.get(params) != current && params.validate().empty()) return value;
  }
  return "";
}

TEST(ViewerCommandLine, TakesEveryParameterFlagOfTheCliTheSameWay) {
  for (const ParamDescriptor& d : param_table()) {
    const std::string value = other_valid_value(d);
    ASSERT_FALSE(value.empty()) << d.key;
    std::vector<std::vector<std::string>> forms = {{"--" + d.key, value}, {"--" + d.key + "=" + value}};
    if (d.kind == ParamKind::Bool) forms.push_back({value == "true" ? "--" + d.key : "--no-" + d.key});
    for (const auto& args : forms) {
      const std::string expected = to_preset_text(parse_stereoview(args).params);
      EXPECT_NE(expected, to_preset_text(StereoParams{})) << args[0];
      try {
        EXPECT_EQ(to_preset_text(parse_viewer(args).params), expected) << args[0];
      } catch (const std::exception& e) {
        ADD_FAILURE() << args[0] << (args.size() > 1 ? " " + args[1] : "") << ": " << e.what();
      }
    }
  }
}

TEST(ViewerCommandLine, TheBlockMatchingWindowAndTheWindowSizeHaveTheirOwnFlags) {
  const ViewerOptions options =
      parse_viewer({"--algorithm", "bm-sad", "--window", "11", "--window-size", "1024x600"});
  EXPECT_EQ(options.params.algorithm, "bm-sad");
  EXPECT_EQ(options.params.window, 11);
  EXPECT_EQ(options.window_width, 1024);
  EXPECT_EQ(options.window_height, 600);
  // The old spelling of the window size says where it went.
  try {
    parse_viewer({"--window", "800x600"});
    ADD_FAILURE() << "--window 800x600 was accepted";
  } catch (const ViewerUsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--window-size WxH"), std::string::npos) << e.what();
  }
  // Checked before the run, as the CLI does: a calibration means nothing to the synthetic scene.
  EXPECT_THROW(parse_viewer({"--calib", "rig.yaml"}), ViewerUsageError);
  EXPECT_FALSE(parse_viewer({"--hide-timings"}).settings.show_timings);
  EXPECT_TRUE(parse_viewer({}).settings.show_timings);
}

TEST(ColourRangeTracker, ModesAndTheSmoothedRangeFollowTheFramesSlowly) {
  StereoParams params;
  params.num_disparities = 64;
  ImageF32 frame(100, 1, 10.0f);
  for (int x = 0; x < 100; ++x) frame.at(x, 0) = 10.0f + 0.2f * x;  // 10 .. 29.8
  frame.at(0, 0) = kInvalidDisparity;
  ColourRangeTracker tracker;
  ColorRange mode;
  tracker.update(mode, params, frame, 1, 0.0);
  EXPECT_FLOAT_EQ(tracker.range().lo, 0.0f);  // search range
  EXPECT_FLOAT_EQ(tracker.range().hi, 63.0f);
  EXPECT_EQ(tracker.histogram().counts.size(), size_t{ColourRangeTracker::kHistogramBins});
  EXPECT_EQ(tracker.histogram().invalid, 1u);
  EXPECT_FLOAT_EQ(tracker.histogram().range.hi, 63.0f);
  mode.mode = ColorRangeMode::Auto;
  tracker.update(mode, params, frame, 1, 0.0);
  EXPECT_FLOAT_EQ(tracker.range().lo, 10.2f);
  mode.mode = ColorRangeMode::Fixed;
  mode.fixed_min = -5.0f, mode.fixed_max = 80.0f;
  tracker.update(mode, params, frame, 2, 0.0);
  EXPECT_FLOAT_EQ(tracker.range().hi, 80.0f);
  EXPECT_FLOAT_EQ(tracker.histogram().range.lo, -5.0f);  // the axis holds the colour range
  EXPECT_FLOAT_EQ(tracker.histogram().range.hi, 80.0f);

  // Smoothed: the first frame's 1..99 % at once, then a frame twice as far only partly.
  mode.mode = ColorRangeMode::Smoothed;
  tracker.update(mode, params, frame, 3, 1.0);
  const DisparityRange first = tracker.range();
  EXPECT_NEAR(first.lo, 10.4, 0.6);
  EXPECT_NEAR(first.hi, 29.6, 0.6);
  ImageF32 far = frame;
  for (float& d : far.pixels()) d = std::isfinite(d) ? d * 2.0f : d;
  tracker.update(mode, params, far, 4, 1.0 + 1.0 / 30.0);
  EXPECT_GT(tracker.range().hi, first.hi);
  EXPECT_LT(tracker.range().hi, first.hi + 0.1 * (2.0f * first.hi - first.hi));
  // The same frame again (no new sequence) does not move it.
  const float held = tracker.range().hi;
  tracker.update(mode, params, far, 4, 5.0);
  EXPECT_FLOAT_EQ(tracker.range().hi, held);
  for (int i = 0; i < 200; ++i) tracker.update(mode, params, far, 5 + i, 2.0 + i / 30.0);
  EXPECT_NEAR(tracker.range().hi, 2.0 * first.hi, 1.2);
}

TEST(RegionProbe, ComputesForANewRectangleAtOnceAndForFramesAtMostFourTimesASecond) {
  ImageF32 d(20, 10, 5.0f);
  int truth_renders = 0;
  const RegionProbe::TruthFn truth = [&] {
    ++truth_renders;
    return ImageF32(20, 10, 5.5f);
  };
  RegionProbe probe;
  probe.update(RegionRect{}, d, 1, {}, truth, 0.0);
  EXPECT_FALSE(probe.statistics().has_value());
  probe.update(RegionRect{2, 2, 4, 4}, d, 1, {}, truth, 0.0);
  ASSERT_TRUE(probe.statistics().has_value());
  EXPECT_EQ(probe.statistics()->pixels, 16);
  EXPECT_EQ(probe.statistics()->bad_1, 0.0);
  d.at(3, 3) = 9.0f;
  probe.update(RegionRect{2, 2, 4, 4}, d, 2, {}, truth, 0.1);  // too soon: kept
  EXPECT_EQ(probe.statistics()->bad_1, 0.0);
  probe.update(RegionRect{2, 2, 4, 4}, d, 3, {}, truth, 0.5);
  EXPECT_DOUBLE_EQ(probe.statistics()->bad_1, 100.0 / 16);
  EXPECT_EQ(truth_renders, 2);
  probe.update(RegionRect{2, 2, 5, 4}, d, 3, {}, nullptr, 0.5);  // new rectangle: at once
  EXPECT_EQ(probe.statistics()->pixels, 20);
  EXPECT_FALSE(probe.statistics()->has_truth);
  const std::vector<std::string> lines = region_statistics_lines(*probe.statistics());
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "region 2 2 5x4: valid 100.0 % of 20 px");
  probe.update(RegionRect{}, d, 4, {}, nullptr, 1.0);
  EXPECT_FALSE(probe.statistics().has_value());
}

TEST(ViewerCommandLine, RegionAndSmoothedRange) {
  const ViewerOptions o = parse_viewer({"--region", "10,20,30,40", "--range", "smoothed"});
  EXPECT_EQ(o.settings.region.x, 10);
  EXPECT_EQ(o.settings.region.height, 40);
  EXPECT_EQ(o.settings.range.mode, ColorRangeMode::Smoothed);
  for (const char* bad : {"10,20,30", "10,20,0,5", "a,b,c,d", "-1,0,5,5", "1,2,3,4,5"}) {
    EXPECT_THROW(parse_viewer({"--region", bad}), ViewerUsageError) << bad;
  }
}

TEST(HelpTable, AFlagTooLongForItsColumnGetsALineOfItsOwn) {
  const std::string text = format_help_rows(
      {{"--short", "fits"}, {"--a-flag-much-longer-than-the-column", "below it"}}, {12, 40});
  EXPECT_EQ(text,
            "  --short   fits\n"
            "  --a-flag-much-longer-than-the-column\n"
            "            below it\n");
  const std::string wrapped = format_help_rows({{"--x", "one two three four five six"}}, {8, 21});
  EXPECT_EQ(wrapped,
            "  --x   one two three\n"
            "        four five six\n");
}

// Runs `program flag` (no display needed: it prints and exits).
std::string output_of(const std::string& program, const std::string& flag, int& exit_code) {
  const std::string dir = make_temp_dir("viewer_help");
  const std::string command = "'" + program + "' " + flag + " >" + dir + "/out 2>&1 </dev/null";
  const int status = std::system(command.c_str());
  exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream file(dir + "/out");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string viewer_help_output(int& exit_code) {
  return output_of(STEREOVIEW_VIEWER_BINARY, "--help", exit_code);
}

TEST(ViewerHelp, TheVersionIsPrintedAsTheCliPrintsIt) {
  int viewer_code = -1, cli_code = -1;
  const std::string viewer = output_of(STEREOVIEW_VIEWER_BINARY, "--version", viewer_code);
  const std::string cli = output_of(STEREOVIEW_BINARY, "--version", cli_code);
  EXPECT_EQ(viewer_code, 0) << viewer;
  ASSERT_EQ(cli_code, 0) << cli;
  ASSERT_EQ(cli.rfind("stereoview ", 0), 0u) << cli;
  EXPECT_EQ(viewer, "stereoview-viewer " + cli.substr(std::string("stereoview ").size()));
  EXPECT_NE(viewer_help_output(viewer_code).find("--version"), std::string::npos);
}

TEST(ViewerHelp, EveryLineFitsAndNoFlagRunsIntoItsDescription) {
  int exit_code = -1;
  const std::string help = viewer_help_output(exit_code);
  ASSERT_EQ(exit_code, 0) << help;
  const HelpLayout layout;
  const size_t column = static_cast<size_t>(layout.text_column);
  std::istringstream lines(help);
  std::string line;
  // Each option's description, its wrapped lines joined, by its first flag.
  std::map<std::string, std::string> descriptions;
  std::string current;
  int options = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 100u) << line;
    if (line.rfind("  -", 0) == 0) {
      ++options;
      current = line.substr(2, line.find(' ', 2) - 2);
      const size_t gap = line.find("  ", 2);
      if (gap == std::string::npos) {
        descriptions[current] = "";  // the flags alone: the description follows below
        continue;
      }
      // The description starts at its column, two spaces (at least) after the flags.
      EXPECT_EQ(line.find_first_not_of(' ', gap), column) << line;
      EXPECT_LE(gap + 2, column) << line;
      descriptions[current] = line.substr(column);
    } else if (line.rfind(std::string(column, ' '), 0) == 0 && !current.empty()) {
      EXPECT_NE(line[column], ' ') << line;
      descriptions[current] += (descriptions[current].empty() ? "" : " ") + line.substr(column);
    } else {
      current.clear();
    }
  }
  EXPECT_GT(options, 40);
  // Every parameter with its whole help text and its default: nothing cut off.
  for (const ParamDescriptor& d : param_table()) {
    ASSERT_TRUE(descriptions.count("--" + d.key)) << d.key;
    const std::string& text = descriptions["--" + d.key];
    EXPECT_EQ(text.rfind(d.help, 0), 0u) << d.key << ": " << text;
    EXPECT_NE(text.find("(default " + d.get(StereoParams{}) + ")"), std::string::npos) << text;
  }
  for (const char* flag : {"--window-size", "--screenshot", "--frames", "--hide-timings"}) {
    EXPECT_TRUE(descriptions.count(flag)) << flag;
  }
}

TEST(OutputPaths, AMissingFolderIsFineWhenItCanBeMadeAndAFileInTheWayIsNot) {
  const std::string dir = make_temp_dir("output_paths");
  EXPECT_NO_THROW(check_output_file(dir + "/new/deeper/shot.png", "--screenshot"));
  EXPECT_NO_THROW(check_output_folder(dir + "/new/snaps", "snapshot"));
  std::ofstream(dir + "/plain") << "x";
  try {
    check_output_file(dir + "/plain/shot.png", "--screenshot");
    ADD_FAILURE() << "a path under a file passed";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("--screenshot"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is not a folder"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_output_file(dir, "--screenshot"), RuntimeError);  // a folder, not a file
  EXPECT_THROW(check_output_folder(dir + "/plain", "snapshot"), RuntimeError);
  // Nothing was created by checking.
  EXPECT_FALSE(std::ifstream(dir + "/new").good());

  create_parent_folders(dir + "/made/here/shot.png", "--screenshot");
  EXPECT_TRUE(std::ifstream(dir + "/made/here").good());
  EXPECT_THROW(create_parent_folders(dir + "/plain/x/shot.png", "--screenshot"), RuntimeError);
}

// Snapshots, recordings and cloud recordings go under out/ unless the user names a place, and
// .gitignore names out/ (issue 39: they landed in the repository's root, not ignored).
TEST(OutputPaths, TheDefaultFoldersAreUnderTheIgnoredOutFolder) {
  std::ifstream gitignore(std::string(STEREOVIEW_SOURCE_DIR) + "/.gitignore");
  bool out_ignored = false;
  for (std::string line; std::getline(gitignore, line);) out_ignored = out_ignored || line == "/out/";
  EXPECT_TRUE(out_ignored);
  for (const std::string folder : {kDefaultSnapshotDir, kDefaultRecordingDir, kDefaultCloudRecordDir}) {
    EXPECT_EQ(folder.rfind("out/", 0), 0u) << folder;
  }
}

TEST(OutputPaths, AScriptsSnapshotFolderAndRecordingFileAreCheckedBeforeTheRun) {
  const std::string dir = make_temp_dir("output_paths_script");
  std::ofstream(dir + "/plain") << "x";
  ViewerOptions options;
  options.script_path = "s.txt";
  options.script = parse_param_script("at frame 1 snapshot " + dir + "/ok/snaps\n"
                                      "at frame 2 record lossless16 " + dir + "/ok/rec.mkv\n",
                                      "s.txt");
  EXPECT_NO_THROW(check_output_paths(options));
  options.script = parse_param_script("at frame 1 snapshot " + dir + "/plain/snaps\n", "s.txt");
  EXPECT_THROW(check_output_paths(options), RuntimeError);
  options.script = parse_param_script("at frame 1 record color " + dir + "/plain/r.mp4\n", "s.txt");
  try {
    check_output_paths(options);
    ADD_FAILURE() << "a recording under a file passed";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("s.txt:1: record"), std::string::npos) << e.what();
  }
}

// An engine named after its kind; "cuda" cannot be made, like on a machine without a device.
class NamedEngine : public test::FakeEngine {
 public:
  explicit NamedEngine(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams&) override {
    DisparityResult result;
    result.disparity = ImageF32(left.width(), left.height(), 1.0f);
    return result;
  }

 private:
  std::string name_;
};

// Feeds the thread's messages to `choice` until it has no request in flight (or 5 s pass).
void settle(EngineChoice& choice, ProcessingThread& processing) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!choice.pending().empty() && std::chrono::steady_clock::now() < deadline) {
    for (const std::string& message : processing.take_messages()) choice.observe(message);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

TEST(EngineChoice, TheBoxShowsTheEngineRunningAndWhyASwitchWasRefused) {
  PairQueue queue(2, QueueFullPolicy::Block);
  EngineFactory factory = [](const std::string& kind, std::ostream&) {
    if (kind == "cuda") throw RuntimeError("--engine cuda: no CUDA device; use --engine cpu");
    return std::unique_ptr<StereoEngine>(new NamedEngine(kind == "auto" ? "cpu" : kind));
  };
  ProcessingThread processing(queue, factory, "cpu", StereoParams{});
  processing.start();
  EngineChoice choice("cpu");

  ASSERT_TRUE(choice.request("cuda"));
  processing.request_engine("cuda");
  settle(choice, processing);
  EXPECT_EQ(choice.kind(), "cpu");  // not "cuda": the CPU engine runs on
  EXPECT_EQ(processing.status().engine, "cpu");
  EXPECT_NE(choice.refusal().find("cuda refused: "), std::string::npos) << choice.refusal();
  EXPECT_NE(choice.refusal().find("no CUDA device"), std::string::npos) << choice.refusal();
  EXPECT_FALSE(choice.request("cuda"));  // refused again: nothing to ask, the reason stands
  EXPECT_FALSE(choice.request("cpu"));   // already running

  ASSERT_TRUE(choice.request("auto"));
  processing.request_engine("auto");
  settle(choice, processing);
  EXPECT_EQ(choice.kind(), "auto");
  EXPECT_TRUE(choice.refusal().empty());
  EXPECT_TRUE(choice.pending().empty());
  processing.stop();
}

// A still pair brings a frame only when something changes: its rates say "still pair", not a
// "0.0 fps" that looks stalled (issue 39). A stalled live camera still reads 0.0 fps.
TEST(RateText, AStillPairSaysSoInsteadOfNoughtFramesPerSecond) {
  EXPECT_EQ(rate_text(0.0, 1, false), "still pair");
  EXPECT_EQ(rate_text(0.0, 1, false, 6), "still pair");
  EXPECT_EQ(rate_text(12.34, 300, false, 6), "  12.3 fps");
  EXPECT_EQ(rate_text(12.34, -1, false), "12.3 fps");
  EXPECT_EQ(rate_text(0.0, -1, true), "0.0 fps");
  EXPECT_EQ(rate_text(0.0, 1, true), "0.0 fps");
}

// A path longer than its field shows its start and its file name (issue 39: the panel cut
// paths at the field's end, hiding the file name).
TEST(ElidedPath, KeepsTheStartAndTheFileNameWithinTheWidth) {
  const std::string path = "/work/shared/data/middlebury2003/teddy/im2.png";
  EXPECT_EQ(elided_path(path, 100), path);
  EXPECT_EQ(elided_path(path, path.size()), path);
  const std::string shown = elided_path(path, 30);
  EXPECT_EQ(shown.size(), 30u);
  EXPECT_EQ(shown, "/work/sha...2003/teddy/im2.png");
  EXPECT_EQ(elided_path(path, 2), "ng");
}

TEST(ScriptRun, ListsTheEventsThatNeverRanAndWhetherATimedOneMayStillCome) {
  ScriptRun run(parse_param_script("at frame 1 set p2 = 150\n"
                                   "at frame 5 colormap gray\n"
                                   "at 2 layout 4\n"));
  EXPECT_TRUE(run.timed_event_pending());
  EXPECT_EQ(run.due(0.0, 1).size(), 1u);
  EXPECT_EQ(run.due(2.5, 1).size(), 1u);
  EXPECT_FALSE(run.timed_event_pending());
  const std::vector<ScriptEvent> left = run.never_ran();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].line, 2);
  EXPECT_EQ(never_ran_text(left[0]), "script line 2 (at frame 5: colormap gray) never ran");
}

LayoutInputs default_inputs(float w, float h) {
  LayoutInputs in;
  in.window_w = w;
  in.window_h = h;
  in.menu_height = 19;
  in.views = {ViewKind::Disparity, ViewKind::Left, ViewKind::Right, ViewKind::Confidence};
  in.disparity_bar_w = 80;
  in.confidence_bar_w = 78;
  in.timings_docked = true;
  in.timings_height = 230;
  in.recording_docked = true;
  in.recording_height = 19;
  in.image_w = 640;
  in.image_h = 480;
  return in;
}

bool inside(const Rect& r, float w, float h) {
  return r.x >= 0 && r.y >= 0 && r.x + r.w <= w + 0.01f && r.y + r.h <= h + 0.01f;
}

TEST(FrameLayout, NothingCoversTheViewsAndTheTimingsAreOnScreen) {
  for (auto [w, h] : {std::pair{1024.0f, 640.0f}, {1280.0f, 800.0f}, {1900.0f, 1060.0f}}) {
    for (int views : {1, 2, 4}) {
      for (bool panel : {true, false}) {
        for (bool timings : {true, false}) {
         for (float side : {0.0f, kSideColumnWidth}) {
          LayoutInputs in = default_inputs(w, h);
          in.layout = views;
          in.show_panel = panel;
          in.timings_docked = timings;
          in.side_w = side;  // the Cost curve or Calibrate window open (issue 39)
          const FrameLayout l = compute_frame_layout(in);
          const std::string where = std::to_string(static_cast<int>(w)) + "x" +
                                    std::to_string(static_cast<int>(h)) + " layout " +
                                    std::to_string(views) + (panel ? " panel" : "") +
                                    (timings ? " timings" : "") + (side > 0 ? " side" : "");
          EXPECT_EQ(l.side.w > 0.0f, side > 0.0f) << where;
          if (side > 0) EXPECT_GE(l.side.w, 0.2f * w) << where;
          std::vector<std::pair<const char*, Rect>> parts = {
              {"panel", l.panel},         {"recording", l.recording},
              {"timings", l.timings},     {"views", l.views},
              {"disparity bar", l.disparity_bar}, {"confidence bar", l.confidence_bar},
              {"side", l.side}};
          for (size_t i = 0; i < l.cells.size(); ++i) parts.push_back({"image", l.images[i]});
          for (size_t i = 0; i < parts.size(); ++i) {
            EXPECT_TRUE(inside(parts[i].second, w, h)) << where << ": " << parts[i].first;
            for (size_t j = i + 1; j < parts.size(); ++j) {
              if (parts[j].first == std::string("image") && parts[i].first == std::string("views")) continue;
              if (parts[i].first == std::string("image") && parts[j].first == std::string("image")) continue;
              EXPECT_FALSE(overlaps(parts[i].second, parts[j].second))
                  << where << ": " << parts[i].first << " and " << parts[j].first;
            }
          }
          EXPECT_GT(l.recording.w, 0.0f) << where;
          EXPECT_EQ(l.timings.w > 0.0f, timings) << where;
          if (timings) {
            EXPECT_FLOAT_EQ(l.timings.h, 230.0f) << where;
          }
          EXPECT_EQ(l.confidence_bar.w > 0.0f, views == 4) << where;  // only view 4 is confidence
          EXPECT_GT(l.disparity_bar.w, 0.0f) << where;
         }
        }
      }
    }
  }
}

// Without the panel, nothing under the views is left empty: the bottom left corner belongs to the
// Timings or the Recording window, collapsed or open (issue 39: an empty column under the
// collapsed Recording window's title bar, beside the Timings).
TEST(FrameLayout, WithoutThePanelTheWindowsUnderTheViewsLeaveNoEmptyColumn) {
  for (float recording_height : {19.0f, 120.0f, 300.0f}) {
    LayoutInputs in = default_inputs(1280, 800);
    in.show_panel = false;
    in.recording_height = recording_height;
    const FrameLayout l = compute_frame_layout(in);
    const std::string where = "recording height " + std::to_string(recording_height);
    EXPECT_TRUE(l.timings.contains(1, 799) || l.recording.contains(1, 799)) << where;
    EXPECT_FALSE(overlaps(l.timings, l.recording)) << where;
    EXPECT_FALSE(overlaps(l.views, l.recording)) << where;
    EXPECT_FALSE(overlaps(l.views, l.timings)) << where;
    // The Timings as tall as they want, or taller beside an opened Recording window.
    EXPECT_GE(l.timings.h, 230.0f) << where;
    const float below_views = 800.0f - (l.views.y + l.views.h);
    EXPECT_LE(below_views, std::max(230.0f + recording_height, recording_height) + 8.0f) << where;
  }
}

TEST(FrameLayout, AnOpenedRecordingWindowTakesItsHeightFromThePanelColumn) {
  LayoutInputs in = default_inputs(1280, 800);
  in.recording_height = 200;
  const FrameLayout l = compute_frame_layout(in);
  EXPECT_FLOAT_EQ(l.recording.y, 600.0f);
  EXPECT_FLOAT_EQ(l.panel.y + l.panel.h, 600.0f);
  in.recording_docked = false;  // dragged away: the panel column is the panel's again
  EXPECT_FLOAT_EQ(compute_frame_layout(in).panel.h, 800.0f - 19.0f);
  EXPECT_EQ(compute_frame_layout(in).recording.w, 0.0f);
}

}  // namespace
}  // namespace sv
