// Signals (issue 24): the first SIGINT or SIGTERM only asks the program to stop, a second ends it
// at once, a file size limit fails a write instead of killing the process; and a recording
// killed outright (SIGKILL, which nothing can catch) loses at most the recorder's queue and the
// frame being written, leaving a sidecar (rewritten while recording) whose frames all decode.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "src/app/recorder.h"
#include "src/app/recording_setup.h"
#include "src/app/stop_signals.h"
#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/synthetic_scene.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/frame_conversion.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

// Runs `body` in a forked child and returns its wait status.
template <typename Body>
int wait_status_of_child(Body body) {
  const pid_t child = fork();
  if (child == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(StopSignals, TheFirstSignalAsksToStopAndTheSecondEndsTheProcess) {
  for (const int signal : {SIGINT, SIGTERM}) {
    const int status = wait_status_of_child([signal] {
      install_stop_signal_handlers();
      if (stop_signal() != 0) _exit(1);
      raise(signal);
      if (stop_signal() != signal) _exit(2);  // still alive, and the request is noted
      raise(signal);
      _exit(3);  // the second must not come back here
    });
    EXPECT_TRUE(WIFSIGNALED(status)) << "signal " << signal << ": exited " << WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
      EXPECT_EQ(WTERMSIG(status), signal);
    }
  }
  EXPECT_EQ(exit_code_for_signal(SIGINT), 130);
  EXPECT_EQ(exit_code_for_signal(SIGTERM), 143);
}

TEST(StopSignals, ASignalIgnoredAtStartStaysIgnored) {
  const int status = wait_status_of_child([] {
    signal(SIGINT, SIG_IGN);  // as a shell starts a script's background job
    install_stop_signal_handlers();
    raise(SIGINT);
    _exit(stop_signal() == 0 ? 0 : 1);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(StopSignals, AFileSizeLimitFailsTheWriteInsteadOfKillingTheProcess) {
  const std::string path = test::fresh_dir("sigxfsz") + "/big";
  const int status = wait_status_of_child([&] {
    ignore_file_size_signal();
    const rlimit limit{4096, RLIM_INFINITY};
    setrlimit(RLIMIT_FSIZE, &limit);
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const std::vector<char> data(16384, 'x');
    ssize_t n = 0;
    while ((n = write(fd, data.data(), data.size())) > 0) {
    }
    _exit(n < 0 && errno == EFBIG ? 0 : 1);
  });
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the write past the limit must fail with EFBIG";
}

constexpr int kWidth = 64;
constexpr int kHeight = 48;
constexpr int kDistinctFrames = 8;

struct SceneFrame {
  SyntheticFrame scene;
  DisparityResult result;
};

const std::vector<SceneFrame>& scene_frames() {
  static const std::vector<SceneFrame> frames = [] {
    SyntheticSceneConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.max_disparity = 16;
    const SyntheticScene scene(config);
    StereoParams params;
    params.num_disparities = 16;
    CpuEngine engine;
    std::vector<SceneFrame> out;
    for (int i = 0; i < kDistinctFrames; ++i) {
      SceneFrame f;
      f.scene = scene.render(i);
      f.result = engine.compute(to_gray(f.scene.left), to_gray(f.scene.right), params);
      out.push_back(std::move(f));
    }
    return out;
  }();
  return frames;
}

RecordingFrame recording_frame(int i) {
  const SceneFrame& f = scene_frames()[i % kDistinctFrames];
  RecordingFrame r;
  r.index = i;
  r.timestamp_s = i / 30.0;
  r.disparity = f.result.disparity;
  r.disparity_fixed = f.result.disparity_fixed;
  return r;
}

double mean_abs_difference(const ImageRgb8& a, const ImageRgb8& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sum += std::abs(a.data()[i].r - b.data()[i].r) + std::abs(a.data()[i].g - b.data()[i].g) +
           std::abs(a.data()[i].b - b.data()[i].b);
  }
  return sum / (3.0 * static_cast<double>(a.size()));
}

// A child records as fast as it can (its producer always waiting on a full queue: the worst
// case) and reports each frame the recorder accepted; the parent kills it with SIGKILL while it
// runs. Returns the frames accepted before the kill.
int64_t record_until_killed(const RecorderSettings& settings) {
  scene_frames();  // before forking
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    Recorder recorder(settings);
    for (int32_t i = 0;; ++i) {
      if (!recorder.submit_waiting(recording_frame(i))) _exit(1);
      const int32_t accepted = i + 1;
      if (write(fds[1], &accepted, sizeof accepted) != sizeof accepted) _exit(1);
    }
  }
  close(fds[1]);
  int32_t accepted = 0;
  int32_t value = 0;
  // Long enough for several sidecar rewrites, and for the queue to be full.
  const auto start = std::chrono::steady_clock::now();
  while ((accepted < 150 ||
          std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300)) &&
         read(fds[0], &value, sizeof value) == sizeof value) {
    accepted = value;
  }
  kill(child, SIGKILL);
  while (read(fds[0], &value, sizeof value) == sizeof value) accepted = value;
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  return accepted;
}

struct KilledCase {
  std::string name;
  std::string format;
  std::string file;
};

void PrintTo(const KilledCase& c, std::ostream* os) { *os << c.name; }

class RecordingKilled : public ::testing::TestWithParam<KilledCase> {};

TEST_P(RecordingKilled, LosesAtMostTheQueueAndLeavesASidecarOfFramesThatDecode) {
  const KilledCase& c = GetParam();
  const std::string dir = test::fresh_dir("killed_" + c.name);
  RecordingRequest request;
  request.path = dir + "/" + c.file;
  request.format = c.format;
  request.params.num_disparities = 16;
  RecorderSettings settings = make_recorder_settings(request);
  settings.sidecar_interval_s = 0.02;
  const int64_t accepted = record_until_killed(settings);
  ASSERT_GT(accepted, 0);

  const bool lossless = c.format == "lossless16";
  FfmpegVideoReader reader(
      request.path, lossless ? FfmpegVideoReader::Pixels::Gray16 : FfmpegVideoReader::Pixels::Rgb8);
  std::vector<FfmpegVideoReader::Frame> decoded;
  while (auto frame = reader.read()) decoded.push_back(std::move(*frame));
  const int64_t lost = accepted - static_cast<int64_t>(decoded.size());
  // The queue, and the frame the recorder was writing: nothing hides in the encoder or a buffer.
  EXPECT_GE(lost, 0);
  EXPECT_LE(lost, static_cast<int64_t>(settings.queue_capacity) + 1) << "accepted " << accepted;
  std::cout << "SIGKILL after " << accepted << " frames accepted: " << decoded.size()
            << " in the file, " << lost << " lost\n";

  std::ifstream in(request.path + ".json");
  const nlohmann::json sidecar = nlohmann::json::parse(in);
  EXPECT_EQ(sidecar["finished"], false);
  EXPECT_EQ(sidecar["stop_reason"], nullptr);
  const int64_t listed = sidecar["frame_count"].get<int64_t>();
  EXPECT_GT(listed, 1) << "the sidecar is rewritten while recording";
  EXPECT_LE(listed, static_cast<int64_t>(decoded.size())) << "it lists only frames in the file";
  for (int64_t i = 0; i < listed; ++i) {
    const int64_t source = sidecar["frames"][i]["source_index"].get<int64_t>();
    const SceneFrame& f = scene_frames()[source % kDistinctFrames];
    if (lossless) {
      ASSERT_EQ(settings.encoder.u16_encoding.decode(decoded[i].gray16), f.result.disparity_fixed)
          << i;
    } else {
      ASSERT_LT(
          mean_abs_difference(decoded[i].rgb, colorize_disparity(f.result.disparity, 0.0f, 15.0f)),
          8.0)
          << i;
    }
  }
}

// A recording killed while it rewrote its sidecar leaves FILE.json.tmp, and one killed at any
// time FILE.json.reserve: the next recording to the same path removes both, even one that
// records nothing (issue 47).
TEST(KilledRecordingLeftovers, TheNextRecordingToThePathRemovesThem) {
  const std::string dir = test::fresh_dir("killed_leftovers");
  RecordingRequest request;
  request.path = dir + "/rec.avi";
  request.format = "color";
  request.params.num_disparities = 16;
  std::ofstream(request.path + ".json.tmp") << "{\"frames\": [";
  std::ofstream(request.path + ".json.reserve") << std::string(4096, 'x');
  {
    Recorder recorder(make_recorder_settings(request));
    recorder.stop();
  }
  EXPECT_FALSE(std::filesystem::exists(request.path + ".json.tmp"));
  EXPECT_FALSE(std::filesystem::exists(request.path + ".json.reserve"));
}

INSTANTIATE_TEST_SUITE_P(Formats, RecordingKilled,
                         ::testing::Values(KilledCase{"ColorMp4", "color", "c.mp4"},
                                           KilledCase{"Lossless16Mkv", "lossless16", "d.mkv"}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sv
