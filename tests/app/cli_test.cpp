#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "src/core/algorithm_registry.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/frame_budget.h"
#include "src/core/image_formats.h"
#include "src/core/param_table.h"
#include "src/core/synthetic_scene.h"
#include "tests/app/process_runner.h"
#include "tests/support/help_layout.h"

namespace sv {
namespace {

using test::make_temp_dir;
using test::run_stereoview;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Cli, HelpListsEveryParameterAndExitsZero) {
  const auto r = run_stereoview({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* flag : {"--p1", "--p2", "--window", "--disparities", "--pyramid-levels",
                           "--census", "--engine", "--preset", "--out", "--frames"}) {
    EXPECT_TRUE(contains(r.out, flag)) << flag;
  }
}

// A long flag once ran into its description ("--confidence-threshoReject pixels..."): every line
// of the help keeps its columns and its width.
TEST(Cli, HelpKeepsItsColumnsOnEveryLine) {
  const auto r = run_stereoview({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& problem : test::help_layout_problems(r.out)) ADD_FAILURE() << problem;
  EXPECT_TRUE(contains(r.out, "  --confidence-threshold    Reject pixels")) << r.out;
}

TEST(Cli, ListAlgorithmsNamesTheRegistry) {
  const auto r = run_stereoview({"--list-algorithms"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "census-sgm"));
  EXPECT_TRUE(contains(r.out, "bm-sad"));
}

TEST(Cli, HeadlessSyntheticWritesPfmAndColorImage) {
  const std::string dir = make_temp_dir("cli_out");
  const auto r = run_stereoview({"--headless", "--size", "160x120", "--frames", "2",
                                 "--disparities", "32", "--engine", "cpu", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "frame 1:")) << r.out;
  EXPECT_TRUE(contains(r.out, "bad-1 nonocc")) << r.out;
  const ImageF32 disparity = read_pfm(dir + "/disparity_000001.pfm");
  ASSERT_EQ(disparity.width(), 160);
  ASSERT_EQ(disparity.height(), 120);
  int valid = 0;
  for (float d : disparity.pixels()) valid += is_valid_disparity(d) && d >= 0 && d < 32;
  EXPECT_GT(valid, 160 * 120 / 2);
  std::ifstream png(dir + "/disparity_000001.png");
  std::ifstream ppm(dir + "/disparity_000001.ppm");
  EXPECT_TRUE(png.good() || ppm.good());
}

TEST(Cli, ImagePairFromFiles) {
  const std::string dir = make_temp_dir("cli_pair");
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 16;
  const SyntheticFrame frame = SyntheticScene(config).render(0);
  write_ppm(dir + "/left.ppm", frame.left);
  write_ppm(dir + "/right.ppm", frame.right);
  const auto r = run_stereoview({"--headless", "--left", dir + "/left.ppm", "--right",
                                 dir + "/right.ppm", "--disparities", "16", "--algorithm",
                                 "bm-sad", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "algorithm bm-sad"));
  EXPECT_EQ(read_pfm(dir + "/disparity_000000.pfm").width(), 96);
}

// Without --headless the note names the viewer where it is (build/ui/ in a build tree).
TEST(Cli, TheHeadlessNoteSaysWhereTheViewerIs) {
  const auto r = run_stereoview({"--size", "64x48", "--frames", "1", "--disparities", "16",
                                 "--engine", "cpu", "--out", make_temp_dir("cli_viewer_note")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string start = "note: running headless: this program has no window; the viewer, ";
  const size_t at = r.err.find(start);
  ASSERT_NE(at, std::string::npos) << r.err;
  const size_t from = at + start.size();
  const std::string viewer = r.err.substr(from, r.err.find(", takes the same flags", from) - from);
#ifdef STEREOVIEW_VIEWER_BINARY
  EXPECT_TRUE(std::filesystem::equivalent(viewer, STEREOVIEW_VIEWER_BINARY)) << r.err;
#else
  EXPECT_NE(r.err.find("is not in this build"), std::string::npos) << r.err;
#endif
}

// The command line page's list of algorithms names every one the registry has (issue 39: the
// README's left out rank-sgm, esaw and esmp).
TEST(Cli, TheDocsAlgorithmListNamesEveryAlgorithm) {
  std::ifstream file(std::string(STEREOVIEW_SOURCE_DIR) + "/docs/cli.md");
  std::string paragraph, line;
  while (std::getline(file, line) && paragraph.empty()) {
    if (line.rfind("Algorithms: ", 0) != 0) continue;
    do {
      paragraph += line + " ";
    } while (std::getline(file, line) && !line.empty());
  }
  ASSERT_FALSE(paragraph.empty());
  for (const AlgorithmInfo& a : algorithm_registry()) {
    EXPECT_TRUE(contains(paragraph, "`" + a.name + "`")) << a.name << " missing from: " << paragraph;
  }
}

TEST(Cli, InvalidParameterIsAUsageError) {
  const auto r = run_stereoview({"--headless", "--window", "4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "window size must be odd and in 3..21, got 4")) << r.err;
}

TEST(Cli, UnknownOptionAndMissingValueAreUsageErrors) {
  auto r = run_stereoview({"--bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown option --bogus")) << r.err;
  r = run_stereoview({"--p1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--p1 needs a value")) << r.err;
  r = run_stereoview({"--p1", "abc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "\"abc\" is not an integer")) << r.err;
  r = run_stereoview({"--left", "a.png"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--left and --right must be given together")) << r.err;
  r = run_stereoview({"eval"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, MissingFileIsARuntimeErrorNamingIt) {
  const auto r = run_stereoview({"--headless", "--left", "/nonexistent/l.png", "--right",
                                 "/nonexistent/r.png"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "/nonexistent/l.png")) << r.err;
}

// A FIFO as an image, an image name linked to /dev/zero and --preset /dev/zero used never to
// return; each is now refused at once with its reason (the time limit keeps the test from hanging).
TEST(Cli, FifosDevicesAndFoldersAreRefusedNotWaitedFor) {
  const std::string dir = make_temp_dir("cli_fifo");
  ASSERT_EQ(mkfifo((dir + "/fifo.pgm").c_str(), 0600), 0);
  ASSERT_EQ(symlink("/dev/zero", (dir + "/zero.pgm").c_str()), 0);
  write_pgm(dir + "/r.pgm", ImageU8(40, 30, 100));
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--left", dir + "/fifo.pgm", "--right", dir + "/r.pgm"}, "fifo.pgm': a FIFO (named pipe), not a regular file"},
      {{"--left", dir + "/r.pgm", "--right", dir + "/zero.pgm"}, "zero.pgm': a character device, not a regular file"},
      {{"--preset", "/dev/zero"}, "preset file '/dev/zero': a character device, not a regular file"},
      {{"--preset", dir + "/fifo.pgm"}, "fifo.pgm': a FIFO (named pipe), not a regular file"},
      {{"--preset", dir}, "cannot read preset file '" + dir + "': a folder, not a regular file"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"--headless", "--engine", "cpu", "--size", "64x48"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_stereoview(args, 30);
    EXPECT_FALSE(r.timed_out) << c.args[1] << " was waited for";
    EXPECT_EQ(r.exit_code, 1) << c.args[1];
    EXPECT_TRUE(contains(r.err, c.message)) << r.err;
  }
}

// The headless runner built the synthetic scene whatever the source, so a valid negative range
// (converging cameras) failed with "synthetic scene: max_disparity -32 must be at least 1".
TEST(Cli, NegativeRangeWorksWithFileSources) {
  const std::string dir = make_temp_dir("cli_negative");
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 16;
  const SyntheticFrame frame = SyntheticScene(config).render(0);
  // Swapped views: the disparities are negative.
  write_ppm(dir + "/left.ppm", frame.right);
  write_ppm(dir + "/right.ppm", frame.left);
  const auto r = run_stereoview({"--headless", "--engine", "cpu", "--left", dir + "/left.ppm",
                                 "--right", dir + "/right.ppm", "--min-disparity", "-64",
                                 "--disparities", "32"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 1 frame")) << r.out;
  // The synthetic scene itself still needs a positive range.
  const auto s = run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48",
                                 "--min-disparity", "-64", "--disparities", "32"});
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_TRUE(contains(s.err, "max_disparity -32 must be at least 1")) << s.err;
}

// Issue 17: --size 8192x8192 --disparities 256 on the CPU neither refused nor finished in 5
// minutes; the frame's memory is now checked before anything is allocated.
TEST(Cli, AFrameLargerThanTheMemoryIsRefusedAtOnceWithTheNumbers) {
  StereoParams params;
  params.num_disparities = 256;
  const uint64_t needed = CpuEngine().frame_cost(8192, 8192, params).host_bytes;
  const std::optional<uint64_t> available = host_available_bytes();
  if (!available || *available >= needed) {
    GTEST_SKIP() << "this machine has room for the frame (" << needed << " bytes)";
  }
  const auto r = run_stereoview({"--headless", "--engine", "cpu", "--size", "8192x8192",
                                 "--disparities", "256"},
                                60);
  EXPECT_FALSE(r.timed_out) << "the frame was computed, not refused";
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // 86.5 GiB: the SIMD engine's padded volumes and backward sums (FastCpuEngine::frame_cost).
  EXPECT_TRUE(contains(r.err, "error: a 8192x8192 frame (census-sgm, 256 disparities) needs "
                              "86.5 GiB of host memory on the cpu engine, but "))
      << r.err;
  EXPECT_TRUE(contains(r.err, " is available")) << r.err;
  EXPECT_FALSE(contains(r.out, "frame 0:")) << r.out;

  // bench checks every row before it runs the first.
  const auto b = run_stereoview({"bench", "--engine", "cpu", "--sizes", "64x48,8192x8192",
                                 "--disparity-counts", "256", "--runs", "1", "--warmup", "0"},
                                60);
  EXPECT_FALSE(b.timed_out) << "bench computed the frame";
  EXPECT_EQ(b.exit_code, 1) << b.err;
  EXPECT_TRUE(contains(b.err, "error: a 8192x8192 frame (census-sgm, 256 disparities) needs ")) << b.err;
  EXPECT_FALSE(contains(b.out, "64x48")) << b.out;
}

TEST(Cli, MismatchedImageSizesAreReported) {
  const std::string dir = make_temp_dir("cli_sizes");
  write_pgm(dir + "/l.pgm", ImageU8(40, 30, 100));
  write_pgm(dir + "/r.pgm", ImageU8(41, 30, 100));
  const auto r = run_stereoview({"--headless", "--left", dir + "/l.pgm", "--right",
                                 dir + "/r.pgm"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "differ in size: 40x30 vs 41x30")) << r.err;
}

TEST(Cli, PresetIsLoadedAndFlagsOverrideIt) {
  const std::string dir = make_temp_dir("cli_preset");
  {
    std::ofstream preset(dir + "/p.preset");
    preset << "algorithm = bm-zncc\nwindow = 7\ndisparities = 16\n";
  }
  auto r = run_stereoview({"--headless", "--preset", dir + "/p.preset", "--size", "64x48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "algorithm bm-zncc")) << r.out;
  r = run_stereoview({"--headless", "--algorithm", "bm-ssd", "--preset", dir + "/p.preset",
                      "--size", "64x48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "algorithm bm-ssd")) << r.out;

  {
    std::ofstream bad(dir + "/bad.preset");
    bad << "p1 = 3\nwindow = banana\n";
  }
  r = run_stereoview({"--headless", "--preset", dir + "/bad.preset"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "bad.preset:2:")) << r.err;
  r = run_stereoview({"--headless", "--preset", dir + "/none.preset"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "none.preset")) << r.err;
}

TEST(Cli, SavePresetWritesWhatTheFlagsSet) {
  const std::string dir = make_temp_dir("cli_save");
  const auto r = run_stereoview({"--p2", "77", "--algorithm", "bm-sad", "--save-preset",
                                 dir + "/saved.preset"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const StereoParams saved = load_preset_file(dir + "/saved.preset");
  StereoParams expected;
  expected.p2 = 77;
  expected.algorithm = "bm-sad";
  EXPECT_EQ(saved, expected);
}

// The presets shipped in assets/ must load; default.preset must stay equal to the defaults.
TEST(Cli, ShippedPresetsLoad) {
  EXPECT_EQ(load_preset_file(STEREOVIEW_SOURCE_DIR "/assets/presets/default.preset"), StereoParams{});
  const StereoParams fast = load_preset_file(STEREOVIEW_SOURCE_DIR "/assets/presets/fast.preset");
  EXPECT_TRUE(fast.validate().empty());
  EXPECT_EQ(fast.pyramid_levels, 2);
}

TEST(Cli, BenchReportsEveryRowAsJson) {
  const auto r = run_stereoview({"bench", "--sizes", "64x48,80x60", "--disparity-counts", "16,32",
                                 "--algorithms", "census-sgm,bm-sad", "--runs", "3",
                                 "--warmup", "1", "--engine", "cpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t rows = 0;
  for (size_t at = r.out.find("\"algorithm\""); at != std::string::npos;
       at = r.out.find("\"algorithm\"", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 2u * 2u * 2u) << r.out;
  // The aggregation's stage: "sgm", or "sgm+wta" where the fast CPU engine selects as it goes.
  for (const char* key : {"\"device_ms\"", "\"gde_per_s\"", "\"fps\"", "\"sgm", "\"census\""}) {
    EXPECT_TRUE(contains(r.out, key)) << key;
  }
  const auto bad = run_stereoview({"bench", "--sizes", "64by48"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--sizes expects WxH")) << bad.err;
}

TEST(Cli, BenchViewerLoopPrintsTheProcessingThreadsRows) {
  const auto r = run_stereoview({"bench", "--viewer-loop", "--engine", "cpu", "--sizes", "64x48",
                                 "--disparity-counts", "16", "--runs", "6", "--warmup", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "bench --viewer-loop: engine cpu")) << r.out;
  EXPECT_TRUE(contains(r.out, "host ms")) << r.out;
  EXPECT_TRUE(contains(r.out, "census-sgm  64x48")) << r.out;
  const auto both = run_stereoview({"bench", "--viewer-loop", "--host-to-host"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_TRUE(contains(both.err, "bench takes one of --host-to-host, --device and --viewer-loop"))
      << both.err;
}

// bench --host-to-host says which input its figures used and, under each row, where the frame's
// time goes (issue 18); --staged-input and --rectify belong to that mode alone.
TEST(Cli, BenchHostToHostSaysItsInputAndWhereTheTimeGoes) {
  const std::vector<std::string> bench = {"bench", "--host-to-host", "--engine", "cpu", "--sizes",
                                          "64x48", "--disparity-counts", "16", "--runs", "4",
                                          "--warmup", "1"};
  const auto pooled = run_stereoview(bench);
  ASSERT_EQ(pooled.exit_code, 0) << pooled.err;
  EXPECT_TRUE(contains(pooled.out, "input: the pair in two blocks of the engine's own host memory (plain)"))
      << pooled.out;
  EXPECT_TRUE(contains(pooled.out, "census-sgm  64x48      16    ")) << pooled.out;
  EXPECT_TRUE(contains(pooled.out, "\n  streamed (means): ")) << pooled.out;
  EXPECT_TRUE(contains(pooled.out, " ms a frame = stages ")) << pooled.out;
  EXPECT_TRUE(contains(pooled.out, "\n  alone: latency ")) << pooled.out;
  EXPECT_TRUE(contains(pooled.out, "; host: submit ")) << pooled.out;
  EXPECT_TRUE(contains(pooled.out, ", collect after its wait ")) << pooled.out;

  std::vector<std::string> staged_args = bench;
  staged_args.push_back("--staged-input");
  const auto staged = run_stereoview(staged_args);
  ASSERT_EQ(staged.exit_code, 0) << staged.err;
  EXPECT_TRUE(contains(staged.out, "input: ordinary host images (--staged-input)")) << staged.out;
  EXPECT_TRUE(contains(staged.out, "\n  streamed (means): ")) << staged.out;

  staged_args.push_back("--json");
  const auto json = run_stereoview(staged_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  for (const char* key : {"\"input\": \"staged\"", "\"stream_stages_ms\"", "\"submit_ms\"",
                          "\"after_wait_ms\"", "\"device_call_ms\": null"}) {
    EXPECT_TRUE(contains(json.out, key)) << key << " in " << json.out;
  }

  const auto misplaced = run_stereoview({"bench", "--staged-input"});
  EXPECT_EQ(misplaced.exit_code, 2);
  EXPECT_TRUE(contains(misplaced.err, "--staged-input is an option of bench --host-to-host"))
      << misplaced.err;

  // --rectify: a calibrated camera's raw colour pairs, rectified by the engine.
  std::vector<std::string> rectify_args = bench;
  rectify_args.push_back("--rectify");
  const auto rectify = run_stereoview(rectify_args);
  ASSERT_EQ(rectify.exit_code, 0) << rectify.err;
  EXPECT_TRUE(contains(rectify.out, "engine cpu, raw colour pairs from host memory")) << rectify.out;
  EXPECT_TRUE(contains(rectify.out, "the RAW colour pair of a calibrated camera (--rectify")) << rectify.out;
  EXPECT_TRUE(contains(rectify.out, "census-sgm  64x48      16    ")) << rectify.out;
  rectify_args.push_back("--json");
  const auto rectify_json = run_stereoview(rectify_args);
  ASSERT_EQ(rectify_json.exit_code, 0) << rectify_json.err;
  EXPECT_TRUE(contains(rectify_json.out, "\"rectify\": true")) << rectify_json.out;
  const auto rectify_misplaced = run_stereoview({"bench", "--device", "--rectify"});
  EXPECT_EQ(rectify_misplaced.exit_code, 2);
  EXPECT_TRUE(contains(rectify_misplaced.err, "--rectify is an option of bench --host-to-host"))
      << rectify_misplaced.err;
}

TEST(Cli, OutputIntoAFileIsARuntimeError) {
  const std::string dir = make_temp_dir("cli_outfile");
  std::ofstream(dir + "/file") << "x";
  const auto r = run_stereoview({"--headless", "--size", "64x48", "--out", dir + "/file"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "not a folder")) << r.err;
}

// The README's first example, `--out out/run` on a fresh checkout, failed on the missing "out".
TEST(Cli, OutputFolderIsCreatedWithItsParents) {
  const std::string dir = make_temp_dir("cli_outnested") + "/new/deeper/run";
  const auto r = run_stereoview({"--headless", "--size", "64x48", "--disparities", "16",
                                 "--engine", "cpu", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_pfm(dir + "/disparity_000000.pfm").width(), 64);
}

TEST(Cli, OutputFolderBehindAFileNamesTheFile) {
  const std::string dir = make_temp_dir("cli_outbehind");
  std::ofstream(dir + "/file") << "x";
  const auto r = run_stereoview({"--headless", "--size", "64x48", "--out", dir + "/file/run"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "\"" + dir + "/file\" exists and is not a folder")) << r.err;
}

TEST(Cli, SavePresetCreatesItsFolders) {
  const std::string path = make_temp_dir("cli_preset_nested") + "/new/deeper/my.preset";
  const auto r = run_stereoview({"--p1", "8", "--save-preset", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream preset(path);
  std::string text((std::istreambuf_iterator<char>(preset)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("p1 = 8"), std::string::npos) << text;
}

// Without --headless the CLI says where the window is instead of "not part of this build yet".
TEST(Cli, WithoutHeadlessPointsToTheViewer) {
  const auto r = run_stereoview({"--size", "64x48", "--disparities", "16", "--engine", "cpu"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "not part of this build yet")) << r.err;
  EXPECT_TRUE(contains(r.err, "stereoview-viewer")) << r.err;
}

TEST(Cli, PyramidTooDeepForTheImageIsReported) {
  const auto r = run_stereoview({"--headless", "--size", "64x48", "--pyramid-levels", "4",
                                 "--disparities", "64"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "too small for 4 pyramid levels")) << r.err;
}

}  // namespace
}  // namespace sv
