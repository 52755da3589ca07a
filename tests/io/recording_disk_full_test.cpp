// A full disk (issue 24): every recording format and every named codec, cut short by a disk that
// fills up (a small tmpfs) and by a file size limit (RLIMIT_FSIZE). The recording must keep
// exactly the frames its sidecar lists, each whole and each the frame the sidecar names; the
// sidecar must say the error (the real one: "No space left on device", "File too large") and the
// frame count the recorder reported. Also: a process killed with SIGKILL loses a bounded number
// of frames and leaves a sidecar listing only frames that decode.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "src/app/recorder.h"
#include "src/app/recording_setup.h"
#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "src/io/disk_reserve.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/frame_conversion.h"
#include "src/io/png_io.h"
#include "src/io/recording_encoder.h"
#include "tests/io/io_test_support.h"
#include "tests/io/small_disk.h"

namespace sv {
namespace {

constexpr int kWidth = 64;
constexpr int kHeight = 48;
constexpr int kDisparities = 16;
constexpr int kDistinctFrames = 8;  // scene frames, cycled
constexpr int kAttempted = 120;     // frames offered to each recording
// Mean error per channel the lossy codecs (H.264 at CRF 16, MPEG-4 and MJPEG at q 2-4, all
// 4:2:0) leave on these small frames; a wrong frame is far beyond it.
constexpr double kLossyTolerance = 8.0;

enum class Depth { Eight, Sixteen, Float };

struct SceneFrame {
  SyntheticFrame scene;
  DisparityResult result;
  ImageU16 left16, right16;  // 16-bit views whose low bytes matter
  ImageF32 leftf, rightf;
};

ImageU16 sixteen_bit(const ImageRgb8& view, int seed) {
  const ImageU8 gray = to_gray(view);
  ImageU16 out(gray.width(), gray.height());
  for (int y = 0; y < gray.height(); ++y) {
    for (int x = 0; x < gray.width(); ++x) {
      out.at(x, y) = static_cast<uint16_t>(gray.at(x, y) * 256 + (x * 7 + y * 3 + seed) % 256);
    }
  }
  return out;
}

ImageF32 floating(const ImageRgb8& view, int seed) {
  const ImageU8 gray = to_gray(view);
  ImageF32 out(gray.width(), gray.height());
  for (int y = 0; y < gray.height(); ++y) {
    for (int x = 0; x < gray.width(); ++x)
      out.at(x, y) = gray.at(x, y) / 255.0f + 1e-4f * (x + seed);
  }
  return out;
}

StereoParams test_params() {
  StereoParams params;
  params.num_disparities = kDisparities;
  return params;
}

// Computed once, before any child is forked.
const std::vector<SceneFrame>& scene_frames() {
  static const std::vector<SceneFrame> frames = [] {
    SyntheticSceneConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.max_disparity = kDisparities;
    const SyntheticScene scene(config);
    CpuEngine engine;
    std::vector<SceneFrame> out;
    for (int i = 0; i < kDistinctFrames; ++i) {
      SceneFrame f;
      f.scene = scene.render(i);
      f.result = engine.compute(to_gray(f.scene.left), to_gray(f.scene.right), test_params());
      f.left16 = sixteen_bit(f.scene.left, i);
      f.right16 = sixteen_bit(f.scene.right, i + 50);
      f.leftf = floating(f.scene.left, i);
      f.rightf = floating(f.scene.right, i + 50);
      out.push_back(std::move(f));
    }
    return out;
  }();
  return frames;
}

const SceneFrame& scene_frame(int64_t source_index) {
  return scene_frames()[source_index % kDistinctFrames];
}

struct RecordingCase {
  std::string name;
  std::string format;  // color, lossless16, raw, side-by-side
  std::string file;    // its extension picks the container, or a PNG / PFM sequence
  std::string codec;   // empty: the format's default
  Depth depth = Depth::Eight;
};

std::string case_name(const ::testing::TestParamInfo<RecordingCase>& info) {
  return info.param.name;
}
void PrintTo(const RecordingCase& c, std::ostream* os) { *os << c.name; }

// Every recording format, and every codec the program's hints name.
const std::vector<RecordingCase> kCases = {
    {"ColorMp4", "color", "c.mp4", ""},
    {"Lossless16Mkv", "lossless16", "d.mkv", ""},
    {"Lossless16PngSequence", "lossless16", "d.png", ""},
    {"Raw8BitMp4", "raw", "pair.mp4", ""},
    {"Raw16BitMkv", "raw", "pair.mkv", "", Depth::Sixteen},
    {"RawFloatPfmPairs", "raw", "pair.pfm", "", Depth::Float},
    {"SideBySideMp4", "side-by-side", "s.mp4", ""},
    {"Mpeg4Mp4", "color", "c.mp4", "mpeg4"},
    {"Mpeg4Avi", "color", "c.avi", "mpeg4"},
    {"MjpegAvi", "color", "c.avi", "mjpeg"},
    {"MjpegMov", "color", "c.mov", "mjpeg"},
    {"Ffv1Mkv", "color", "c.mkv", "ffv1"},
    {"Libx264Mkv", "color", "c.mkv", "libx264"},
};

bool is_sequence(const RecordingCase& c) {
  return c.depth == Depth::Float ||
         (c.format == "lossless16" && c.file.find(".png") != std::string::npos);
}

// The cases a file size limit can stop: one file (a sequence's files are each small).
std::vector<RecordingCase> single_file_cases() {
  std::vector<RecordingCase> cases;
  for (const RecordingCase& c : kCases) {
    if (!is_sequence(c)) cases.push_back(c);
  }
  return cases;
}

RecordingFrame recording_frame(int i, Depth depth) {
  const SceneFrame& f = scene_frame(i);
  RecordingFrame r;
  r.index = i;
  r.timestamp_s = i / 30.0;
  r.left = f.scene.left;
  r.right = f.scene.right;
  r.disparity = f.result.disparity;
  r.disparity_fixed = f.result.disparity_fixed;
  if (depth == Depth::Sixteen) {
    r.left16 = f.left16;
    r.right16 = f.right16;
  } else if (depth == Depth::Float) {
    r.leftf = f.leftf;
    r.rightf = f.rightf;
  }
  return r;
}

RecorderSettings settings_for(const RecordingCase& c, const std::string& dir) {
  RecordingRequest request;
  request.path = dir + "/" + c.file;
  request.format = c.format;
  request.codec = c.codec;
  request.params = test_params();
  request.source = "disk full test";
  request.engine = "cpu";
  return make_recorder_settings(request);
}

struct RecordResult {
  int accepted = 0;
  int64_t frames_written = 0;
  std::string error;
};

// Offers kAttempted frames, waiting for room like a batch run; stops at the first refusal.
RecordResult record(const RecordingCase& c, const std::string& dir) {
  RecordResult result;
  Recorder recorder(settings_for(c, dir));
  for (int i = 0; i < kAttempted; ++i) {
    if (!recorder.submit_waiting(recording_frame(i, c.depth))) break;
    ++result.accepted;
  }
  const RecorderStatus status = recorder.stop({RecordingStop::Reason::FrameLimit, 0, ""});
  result.frames_written = status.frames_written;
  result.error = status.error;
  return result;
}

std::string to_report(const RecordResult& r) {
  return std::to_string(r.accepted) + "\n" + std::to_string(r.frames_written) + "\n" + r.error;
}

RecordResult from_report(const std::string& report) {
  RecordResult r;
  const size_t first = report.find('\n');
  const size_t second = report.find('\n', first + 1);
  if (first == std::string::npos || second == std::string::npos) return r;
  r.accepted = std::stoi(report.substr(0, first));
  r.frames_written = std::stoll(report.substr(first + 1, second - first - 1));
  r.error = report.substr(second + 1);
  return r;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

template <typename T>
Image<T> beside(const Image<T>& a, const Image<T>& b) {
  Image<T> out(a.width() + b.width(), a.height());
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) out.at(x, y) = a.at(x, y);
    for (int x = 0; x < b.width(); ++x) out.at(a.width() + x, y) = b.at(x, y);
  }
  return out;
}

double mean_abs_difference(const ImageRgb8& a, const ImageRgb8& b) {
  if (!a.same_size(b)) return 1e9;
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sum += std::abs(a.data()[i].r - b.data()[i].r) + std::abs(a.data()[i].g - b.data()[i].g) +
           std::abs(a.data()[i].b - b.data()[i].b);
  }
  return sum / (3.0 * static_cast<double>(a.size()));
}

bool same_bits(const ImageF32& a, const ImageF32& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

ImageRgb8 expected_colour_frame(const RecordingCase& c, int64_t source_index) {
  const SceneFrame& f = scene_frame(source_index);
  const ImageRgb8 colour = colorize_disparity(f.result.disparity, 0.0f, kDisparities - 1.0f);
  if (c.format == "raw") return beside(f.scene.left, f.scene.right);
  if (c.format == "side-by-side") return beside(f.scene.left, colour);
  return colour;
}

// Reads the recording back the way its users would and checks each frame against the frame the
// sidecar names for its place. Returns the number of frames read back.
int64_t read_back_and_check(const RecordingCase& c, const std::string& dir,
                            const nlohmann::json& sidecar) {
  const std::string path = dir + "/" + c.file;
  const nlohmann::json& frames = sidecar["frames"];
  auto source_index = [&](int64_t i) -> int64_t {
    return i < static_cast<int64_t>(frames.size()) ? frames[i]["source_index"].get<int64_t>() : -1;
  };
  int64_t count = 0;
  if (c.depth == Depth::Float) {
    for (;; ++count) {
      const std::string left = float_pair_frame_path(path, "left", count);
      const std::string right = float_pair_frame_path(path, "right", count);
      if (!std::filesystem::exists(left) && !std::filesystem::exists(right)) break;
      const SceneFrame& f = scene_frame(source_index(count));
      EXPECT_TRUE(same_bits(read_pfm(left), f.leftf)) << "file frame " << count;
      EXPECT_TRUE(same_bits(read_pfm(right), f.rightf)) << "file frame " << count;
    }
    return count;
  }
  const DisparityU16Encoding encoding = DisparityU16Encoding::for_min_disparity(0);
  if (is_sequence(c)) {
    for (;; ++count) {
      const std::string file = png_sequence_frame_path(path, count);
      if (!std::filesystem::exists(file)) break;
      EXPECT_EQ(encoding.decode(read_image_u16(file)),
                scene_frame(source_index(count)).result.disparity_fixed)
          << "file frame " << count;
    }
    return count;
  }
  const bool gray16 = c.format == "lossless16" || c.depth == Depth::Sixteen;
  FfmpegVideoReader reader(
      path, gray16 ? FfmpegVideoReader::Pixels::Gray16 : FfmpegVideoReader::Pixels::Rgb8);
  while (auto frame = reader.read()) {
    const SceneFrame& f = scene_frame(source_index(count));
    if (c.format == "lossless16") {
      EXPECT_EQ(encoding.decode(frame->gray16), f.result.disparity_fixed) << "file frame " << count;
    } else if (gray16) {
      EXPECT_EQ(frame->gray16, beside(f.left16, f.right16)) << "file frame " << count;
    } else {
      EXPECT_LT(mean_abs_difference(frame->rgb, expected_colour_frame(c, source_index(count))),
                kLossyTolerance)
          << "file frame " << count;
    }
    ++count;
  }
  return count;
}

// Bytes the recording takes on disk (whole blocks, as a small disk counts them).
uint64_t disk_bytes(const std::string& dir) {
  uint64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    struct stat info {};
    if (::stat(entry.path().c_str(), &info) == 0)
      bytes += static_cast<uint64_t>(info.st_blocks) * 512;
  }
  return bytes;
}

// What a failed write must leave: a sidecar with the error and exactly the frames in the file.
void expect_cut_short_recording(const RecordingCase& c, const std::string& dir,
                                const RecordResult& run, const std::string& reason,
                                int attempted = kAttempted) {
  EXPECT_LT(run.frames_written, attempted) << "the full disk must stop the recording";
  EXPECT_LE(run.frames_written, run.accepted);
  EXPECT_NE(run.error.find("recording stopped"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find(reason), std::string::npos) << run.error;
  EXPECT_GT(run.frames_written, 0) << "frames before the failure must be kept; " << run.error;

  const std::string sidecar_path = dir + "/" + c.file + ".json";
  ASSERT_TRUE(std::filesystem::exists(sidecar_path)) << "no sidecar; " << run.error;
  const nlohmann::json sidecar = read_json(sidecar_path);
  EXPECT_EQ(sidecar["finished"], true);
  EXPECT_EQ(sidecar["complete"], false);
  EXPECT_EQ(sidecar["stop_reason"], "recording error");
  EXPECT_EQ(sidecar["error"], run.error);
  EXPECT_EQ(sidecar["frame_count"], run.frames_written);
  ASSERT_EQ(sidecar["frames"].size(), static_cast<size_t>(run.frames_written));

  EXPECT_EQ(read_back_and_check(c, dir, sidecar), run.frames_written)
      << "the frames a reader gets back must be the frames the sidecar lists";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << "left behind: " << name;
    EXPECT_EQ(name.find(".reserve"), std::string::npos) << "left behind: " << name;
  }
}

class FullDiskTest : public ::testing::TestWithParam<RecordingCase> {
 protected:
  void SetUp() override {
    scene_frames();  // computed before forking
    dir_ = test::fresh_dir("full_disk_" + GetParam().name);
    // The whole recording first, without a limit: its size sets the limits below.
    std::filesystem::create_directories(dir_ + "/whole");
    const RecordResult whole = record(GetParam(), dir_ + "/whole");
    ASSERT_EQ(whole.error, "");
    ASSERT_EQ(whole.frames_written, kAttempted);
    const nlohmann::json sidecar = read_json(dir_ + "/whole/" + GetParam().file + ".json");
    EXPECT_EQ(sidecar["stop_reason"], "frame limit");
    ASSERT_EQ(read_back_and_check(GetParam(), dir_ + "/whole", sidecar), kAttempted);
    if (!is_sequence(GetParam())) {
      file_bytes_ = std::filesystem::file_size(dir_ + "/whole/" + GetParam().file);
    }
    disk_bytes_ = disk_bytes(dir_ + "/whole");
  }

  std::string dir_;
  uint64_t file_bytes_ = 0;
  uint64_t disk_bytes_ = 0;
};

class RecordingOnASmallDisk : public FullDiskTest {};
class RecordingUnderAFileSizeLimit : public FullDiskTest {};

TEST_P(RecordingOnASmallDisk, AFullDiskKeepsExactlyTheFramesTheSidecarLists) {
  const RecordingCase& c = GetParam();
  const std::string disk = dir_ + "/disk";
  const std::string copy = dir_ + "/copy";
  std::filesystem::create_directories(disk);
  test::FullDiskSetup setup;
  setup.small_disk_dir = disk;
  // Half of what the whole recording takes, and room for its sidecar.
  setup.small_disk_bytes = disk_bytes_ / 2 + 48 * 1024;
  setup.copy_to = copy;
  const test::ChildOutcome outcome =
      test::run_with_full_disk(setup, [&] { return to_report(record(c, disk)); });
  if (!outcome.skipped.empty()) GTEST_SKIP() << "no small disk: " << outcome.skipped;
  ASSERT_FALSE(outcome.crashed) << outcome.report;
  expect_cut_short_recording(c, copy, from_report(outcome.report), "No space left on device");
}

TEST_P(RecordingUnderAFileSizeLimit, AFileSizeLimitKeepsExactlyTheFramesTheSidecarLists) {
  const RecordingCase& c = GetParam();
  const std::string dir = dir_ + "/limited";
  std::filesystem::create_directories(dir);
  test::FullDiskSetup setup;
  setup.file_size_limit = file_bytes_ / 2;
  const test::ChildOutcome outcome =
      test::run_with_full_disk(setup, [&] { return to_report(record(c, dir)); });
  ASSERT_FALSE(outcome.crashed) << outcome.report;
  expect_cut_short_recording(c, dir, from_report(outcome.report), "File too large");
}

INSTANTIATE_TEST_SUITE_P(EveryFormatAndCodec, RecordingOnASmallDisk, ::testing::ValuesIn(kCases),
                         case_name);
INSTANTIATE_TEST_SUITE_P(EveryFormatAndCodec, RecordingUnderAFileSizeLimit,
                         ::testing::ValuesIn(single_file_cases()), case_name);

// Fills whatever room is left on the file system of `path` with a file of its own.
void fill_the_disk(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  const std::vector<char> block(4096, 'x');
  while (fd >= 0 && ::write(fd, block.data(), block.size()) > 0) {
  }
  if (fd >= 0) ::close(fd);
}

// The final sidecar is written even when another program fills the disk to the last byte: the
// room kept for it (FILE.json.reserve) is given back for that one write.
TEST(RecordingSidecarReserve, TheSidecarIsWrittenWhenAnotherFileFillsTheDisk) {
  scene_frames();
  const std::string dir = test::fresh_dir("reserve");
  const std::string disk = dir + "/disk";
  std::filesystem::create_directories(disk);
  const RecordingCase c{"ColorMp4", "color", "c.mp4", ""};
  constexpr int kBefore = 200;  // frames recorded before the disk fills; the sidecar is then ~30 kB
  test::FullDiskSetup setup;
  setup.small_disk_dir = disk;
  setup.small_disk_bytes = 1024 * 1024;
  setup.copy_to = dir + "/copy";
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    RecordResult result;
    Recorder recorder(settings_for(c, disk));
    for (int i = 0; i < kBefore; ++i)
      result.accepted += recorder.submit_waiting(recording_frame(i, c.depth));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (recorder.status().frames_written < kBefore &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    fill_the_disk(disk + "/filler");
    for (int i = kBefore; i < 2 * kBefore; ++i) {
      if (!recorder.submit_waiting(recording_frame(i, c.depth))) break;
      ++result.accepted;
    }
    const RecorderStatus status = recorder.stop();
    std::filesystem::remove(disk + "/filler");  // only to keep the copy small
    result.frames_written = status.frames_written;
    result.error = status.error;
    return to_report(result);
  });
  if (!outcome.skipped.empty()) GTEST_SKIP() << "no small disk: " << outcome.skipped;
  ASSERT_FALSE(outcome.crashed) << outcome.report;
  const RecordResult run = from_report(outcome.report);
  EXPECT_GE(run.frames_written, kBefore);
  expect_cut_short_recording(c, dir + "/copy", run, "No space left on device", 2 * kBefore);
}

// Issue 24: cv::imwrite said yes to a PNG whose last flush failed, leaving a cut file, and the
// message read errno too late ("No such file or directory"). A PNG (and a PFM pair frame) now
// appears whole or not at all, and the error is the disk's.
TEST(AtomicFileWrite, AFullDiskLeavesNoCutFileAndNamesTheCause) {
  const std::string dir = test::fresh_dir("atomic_png");
  test::FullDiskSetup setup;
  setup.small_disk_dir = dir;
  setup.small_disk_bytes = 64 * 1024;
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    ImageU16 noise(256, 256);  // ~128 kB of PNG: more than the disk holds
    std::mt19937 random(5);
    for (uint16_t& v : noise.pixels()) v = static_cast<uint16_t>(random());
    std::string report;
    try {
      write_png(dir + "/d_000094.png", noise);
      report = "written";
    } catch (const std::exception& e) {
      report = e.what();
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      report += "\nleft " + entry.path().string();
    return report;
  });
  if (!outcome.skipped.empty()) GTEST_SKIP() << "no small disk: " << outcome.skipped;
  ASSERT_FALSE(outcome.crashed);
  EXPECT_EQ(outcome.report, "cannot write " + dir + "/d_000094.png: No space left on device");
}

TEST(DiskReserve, HoldsRealSpaceAndGivesItBack) {
  const std::string dir = test::fresh_dir("disk_reserve");
  test::FullDiskSetup setup;
  setup.small_disk_dir = dir;
  setup.small_disk_bytes = 256 * 1024;
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    std::string report;
    DiskReserve reserve(dir + "/r.reserve");
    report += reserve.grow_to(160 * 1024) ? "grown " : "not grown ";
    // The reserve's space is taken: a file of the rest cannot have it.
    fill_the_disk(dir + "/filler");
    const auto filler = std::filesystem::file_size(dir + "/filler");
    report += filler <= 96 * 1024 ? "filler fits around it " : "filler took the reserve ";
    report +=
        reserve.grow_to(512 * 1024) ? "grew past the disk " : "refused: " + reserve.error() + " ";
    report += reserve.size() == 160 * 1024 ? "kept its size " : "lost its size ";
    reserve.shrink_to(32 * 1024);
    fill_the_disk(dir + "/filler2");
    const auto freed = std::filesystem::file_size(dir + "/filler2");
    report += freed >= 120 * 1024 ? "shrinking gave space back " : "shrinking gave nothing back ";
    reserve.remove();
    report += std::filesystem::exists(dir + "/r.reserve") ? "file left" : "file removed";
    return report;
  });
  if (!outcome.skipped.empty()) GTEST_SKIP() << "no small disk: " << outcome.skipped;
  ASSERT_FALSE(outcome.crashed) << outcome.report;
  EXPECT_EQ(outcome.report,
            "grown filler fits around it refused: cannot keep 524288 bytes for the sidecar in " +
                dir +
                "/r.reserve: No space left on device kept its size shrinking gave space back file "
                "removed");
}

}  // namespace
}  // namespace sv
