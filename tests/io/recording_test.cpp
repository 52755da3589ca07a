// Recording (issue 6): frames of the synthetic scene recorded in every format and decoded back;
// the lossless stream must equal the engine's disparities exactly, the colour stream must match
// the colorized disparity within what H.264 loses; a write failure mid-recording must leave a
// file that decodes up to the failure; the sidecar must list every frame.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/app/recorder.h"
#include "src/app/recording_setup.h"
#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/frame_conversion.h"
#include "src/io/packed_video_source.h"
#include "src/io/png_io.h"
#include "src/io/point_cloud_ply.h"
#include "src/io/recording_encoder.h"
#include "src/io/recording_sidecar.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

constexpr int kWidth = 96;
constexpr int kHeight = 72;

StereoParams test_params() {
  StereoParams params;
  params.num_disparities = 24;
  params.fill_holes = false;  // keep invalid pixels: they must round-trip too
  return params;
}

// H.264 at 4:2:0 (the default, what every player decodes) halves the colour resolution, so the
// colormap's hard edges and the scene's fine texture come back within this mean error per
// channel on these small frames; a wrong or shifted frame is far beyond it (see the guard below).
constexpr double kCodecTolerance = 8.0;

// Frames of the synthetic scene with their disparities, computed once for the whole suite.
struct ComputedFrame {
  SyntheticFrame scene;
  DisparityResult result;
};

const std::vector<ComputedFrame>& computed_frames() {
  static const std::vector<ComputedFrame> frames = [] {
    SyntheticSceneConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.max_disparity = test_params().num_disparities;
    const SyntheticScene scene(config);
    CpuEngine engine;
    std::vector<ComputedFrame> out;
    for (int i = 0; i < 8; ++i) {
      ComputedFrame f;
      f.scene = scene.render(i);
      f.result = engine.compute(to_gray(f.scene.left), to_gray(f.scene.right), test_params());
      out.push_back(std::move(f));
    }
    return out;
  }();
  return frames;
}

RecordingFrame recording_frame(const ComputedFrame& f) {
  RecordingFrame r;
  r.index = f.scene.index;
  r.timestamp_s = f.scene.timestamp_s;
  r.left = f.scene.left;
  r.right = f.scene.right;
  r.disparity = f.result.disparity;
  r.disparity_fixed = f.result.disparity_fixed;
  return r;
}

RecorderSettings settings_for(const std::string& path, const std::string& format,
                              const std::string& codec = "") {
  RecordingRequest request;
  request.path = path;
  request.format = format;
  request.codec = codec;
  request.params = test_params();
  request.source = "synthetic test";
  request.engine = "cpu";
  request.geometry = synthetic_scene_geometry(kWidth, kHeight, test_params().num_disparities);
  return make_recorder_settings(request);
}

RecorderStatus record(const RecorderSettings& settings, int frames) {
  Recorder recorder(settings);
  for (int i = 0; i < frames; ++i) {
    EXPECT_TRUE(recorder.submit_waiting(recording_frame(computed_frames()[i])));
  }
  return recorder.stop();
}

std::vector<FfmpegVideoReader::Frame> decode_all(const std::string& path,
                                                 FfmpegVideoReader::Pixels pixels) {
  FfmpegVideoReader reader(path, pixels);
  std::vector<FfmpegVideoReader::Frame> frames;
  while (auto frame = reader.read()) frames.push_back(std::move(*frame));
  return frames;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);  // throws (failing the test) on malformed JSON
}

double mean_abs_difference(const ImageRgb8& a, const ImageRgb8& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sum += std::abs(a.data()[i].r - b.data()[i].r) + std::abs(a.data()[i].g - b.data()[i].g) +
           std::abs(a.data()[i].b - b.data()[i].b);
  }
  return sum / (3.0 * a.size());
}

ImageRgb8 crop(const ImageRgb8& image, int x0, int width) {
  ImageRgb8 out(width, image.height());
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < width; ++x) out.at(x, y) = image.at(x0 + x, y);
  }
  return out;
}

TEST(DisparityU16Encoding, MapsFixedPointWithOffsetAndInvalidToZero) {
  const auto zero_based = DisparityU16Encoding::for_min_disparity(0);
  EXPECT_EQ(zero_based.offset, 16);
  EXPECT_EQ(zero_based.encode(int16_t{0}), 16);
  EXPECT_EQ(zero_based.encode(int16_t{63 * 16 + 5}), 63 * 16 + 5 + 16);
  EXPECT_EQ(zero_based.encode(kInvalidFixedDisparity), 0);
  EXPECT_EQ(zero_based.decode(uint16_t{0}), kInvalidFixedDisparity);
  const auto negative = DisparityU16Encoding::for_min_disparity(-8);
  EXPECT_EQ(negative.offset, 144);
  EXPECT_EQ(negative.encode(int16_t{-128}), 16);  // the smallest disparity of the search
  EXPECT_EQ(negative.decode(uint16_t{16}), -128);
  int64_t clamped = 0;
  EXPECT_EQ(zero_based.encode(int16_t{-100}, &clamped), 1);  // below the headroom: clamped
  EXPECT_EQ(clamped, 1);
}

TEST(Recording, LosslessMatroskaDecodesToTheExactDisparities) {
  const std::string dir = test::fresh_dir("lossless");
  const RecorderSettings settings = settings_for(dir + "/d.mkv", "lossless16");
  const RecorderStatus status = record(settings, 6);
  ASSERT_EQ(status.error, "");
  EXPECT_EQ(status.frames_written, 6);
  EXPECT_EQ(status.dropped, 0);
  EXPECT_GT(status.bytes_written, 0);

  const auto frames = decode_all(dir + "/d.mkv", FfmpegVideoReader::Pixels::Gray16);
  ASSERT_EQ(frames.size(), 6u);
  int64_t invalid = 0;
  for (int i = 0; i < 6; ++i) {
    const ImageI16 decoded = settings.encoder.u16_encoding.decode(frames[i].gray16);
    ASSERT_EQ(decoded, computed_frames()[i].result.disparity_fixed) << "frame " << i;
    for (int16_t v : decoded.pixels()) invalid += v == kInvalidFixedDisparity;
  }
  EXPECT_GT(invalid, 0) << "the scene has occlusions: some pixels must round-trip as invalid";
}

TEST(Recording, LosslessPngSequenceDecodesToTheExactDisparities) {
  const std::string dir = test::fresh_dir("png16");
  const RecorderSettings settings = settings_for(dir + "/seq/d.png", "lossless16");
  ASSERT_EQ(record(settings, 3).error, "");
  for (int i = 0; i < 3; ++i) {
    const ImageU16 values = read_image_u16(png_sequence_frame_path(dir + "/seq/d.png", i));
    EXPECT_EQ(settings.encoder.u16_encoding.decode(values), computed_frames()[i].result.disparity_fixed);
  }
  EXPECT_FALSE(std::filesystem::exists(png_sequence_frame_path(dir + "/seq/d.png", 3)));
}

TEST(Recording, ColorMp4MatchesTheColorizedDisparityWithinCodecLoss) {
  const std::string dir = test::fresh_dir("color");
  const RecorderSettings settings = settings_for(dir + "/c.mp4", "color");
  ASSERT_EQ(record(settings, 6).error, "");
  const auto frames = decode_all(dir + "/c.mp4", FfmpegVideoReader::Pixels::Rgb8);
  ASSERT_EQ(frames.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    const ImageRgb8 expected = colorize_disparity(computed_frames()[i].result.disparity, 0.0f, 23.0f);
    ASSERT_TRUE(frames[i].rgb.same_size(expected));
    EXPECT_LT(mean_abs_difference(frames[i].rgb, expected), kCodecTolerance) << "frame " << i;
  }
  // The tolerance is tight enough to tell frames apart: frame 0 against the colorized
  // disparity of a very different image (everything invalid) is far off.
  const ImageRgb8 black(kWidth, kHeight);
  EXPECT_GT(mean_abs_difference(frames[0].rgb, black), 5 * kCodecTolerance);
}

TEST(Recording, RawPairReplaysThroughTheSideBySideFileSource) {
  const std::string dir = test::fresh_dir("raw");
  ASSERT_EQ(record(settings_for(dir + "/pair.mp4", "raw"), 4).error, "");
  PackedVideoSource source(dir + "/pair.mp4", PackedLayout::SideBySide);
  for (int i = 0; i < 4; ++i) {
    const auto pair = source.next();
    ASSERT_TRUE(pair) << "frame " << i;
    ASSERT_TRUE(pair->left.same_size(kWidth, kHeight));
    EXPECT_LT(mean_abs_difference(pair->left, computed_frames()[i].scene.left), kCodecTolerance);
    EXPECT_LT(mean_abs_difference(pair->right, computed_frames()[i].scene.right), kCodecTolerance);
    // The views are told apart: left against right is far off.
    EXPECT_GT(mean_abs_difference(pair->left, computed_frames()[i].scene.right), 2 * kCodecTolerance);
  }
  EXPECT_FALSE(source.next());
}

TEST(Recording, SideBySideHoldsTheLeftViewBesideTheColorizedDisparity) {
  const std::string dir = test::fresh_dir("sbs");
  ASSERT_EQ(record(settings_for(dir + "/s.mkv", "side-by-side", "ffv1"), 2).error, "");
  const auto frames = decode_all(dir + "/s.mkv", FfmpegVideoReader::Pixels::Rgb8);
  ASSERT_EQ(frames.size(), 2u);
  ASSERT_EQ(frames[1].rgb.width(), 2 * kWidth);
  // FFV1 is lossless: both halves are exact.
  EXPECT_EQ(crop(frames[1].rgb, 0, kWidth), computed_frames()[1].scene.left);
  EXPECT_EQ(crop(frames[1].rgb, kWidth, kWidth),
            colorize_disparity(computed_frames()[1].result.disparity, 0.0f, 23.0f));
}

TEST(Recording, SidecarListsEveryFrameWithParametersAndDecoding) {
  const std::string dir = test::fresh_dir("sidecar");
  const RecorderStatus status = record(settings_for(dir + "/d.mkv", "lossless16"), 5);
  ASSERT_EQ(status.error, "");
  const nlohmann::json doc = read_json(dir + "/d.mkv.json");
  EXPECT_EQ(doc["format"], "lossless16");
  EXPECT_EQ(doc["codec"], "ffv1");
  EXPECT_EQ(doc["algorithm"], "census-sgm");
  EXPECT_EQ(doc["parameters"]["disparities"], "24");
  EXPECT_NE(doc["preset"].get<std::string>().find("disparities = 24"), std::string::npos);
  EXPECT_EQ(doc["disparity"]["u16_offset"], 16);
  EXPECT_EQ(doc["disparity"]["fixed_point_scale"], 16);
  EXPECT_DOUBLE_EQ(doc["calibration"]["focal_length_px"].get<double>(), 0.9 * kWidth);
  EXPECT_EQ(doc["complete"], true);
  EXPECT_EQ(doc["error"], "");
  ASSERT_EQ(doc["frames"].size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(doc["frames"][i]["file_index"], i);
    EXPECT_EQ(doc["frames"][i]["source_index"], i);
    EXPECT_DOUBLE_EQ(doc["frames"][i]["timestamp_s"].get<double>(), i / 30.0);
  }
}

TEST(Recording, AFullQueueDropsAndCountsFramesInsteadOfWaiting) {
  const std::string dir = test::fresh_dir("drops");
  RecorderSettings settings = settings_for(dir + "/c.mp4", "color");
  settings.queue_capacity = 1;
  Recorder recorder(settings);
  const int submitted = 40;
  int accepted = 0;
  for (int i = 0; i < submitted; ++i) accepted += recorder.submit(recording_frame(computed_frames()[i % 8]));
  const RecorderStatus status = recorder.stop();
  ASSERT_EQ(status.error, "");
  EXPECT_GT(status.dropped, 0) << "40 frames at once cannot all fit a queue of one";
  EXPECT_EQ(status.frames_written, accepted);
  EXPECT_EQ(status.frames_written + status.dropped, submitted);
  EXPECT_EQ(read_json(dir + "/c.mp4.json")["dropped_frames"], status.dropped);
  EXPECT_EQ(decode_all(dir + "/c.mp4", FfmpegVideoReader::Pixels::Rgb8).size(),
            static_cast<size_t>(status.frames_written));
}

TEST(Recording, AnUnknownCodecOrUnwritableFolderIsRefusedBeforeTheFirstFrame) {
  try {
    Recorder recorder(settings_for(test::fresh_dir("codec") + "/c.mp4", "color", "no-such-codec"));
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("no video encoder \"no-such-codec\""), std::string::npos);
  }
  // A folder cannot be made under a file (and root may write anywhere else).
  const std::string dir = test::fresh_dir("unwritable");
  std::ofstream(dir + "/file") << "not a folder";
  try {
    Recorder recorder(settings_for(dir + "/file/c.mp4", "color"));
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(
        std::string(e.what()).find("recording to " + dir + "/file/c.mp4: cannot create the folder"),
        std::string::npos)
        << e.what();
  }
}

// Issue 17: what can be known before the first frame is checked when the recording is made,
// and the folders of the file are created.
TEST(Recording, FoldersAreCreatedAndImpossibleChoicesRefusedWhenTheRecordingIsMade) {
  const std::string dir = test::fresh_dir("early");
  {
    Recorder recorder(settings_for(dir + "/out/sub/d.mkv", "lossless16"));
    EXPECT_TRUE(std::filesystem::is_directory(dir + "/out/sub")) << "made before any frame";
  }
  const auto refused = [&](const std::string& file, const std::string& format,
                           const std::string& codec) {
    try {
      Recorder recorder(settings_for(dir + "/" + file, format, codec));
    } catch (const RuntimeError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused("x.mp4", "lossless16", "")
                .find("lossless16 is stored as FFV1, which this container "
                      "cannot hold; name the file .mkv"),
            std::string::npos);
  EXPECT_NE(
      refused("x.mkv", "lossless16", "libx264").find("libx264 cannot store 16-bit gray frames"),
      std::string::npos);
  EXPECT_NE(refused("x.png", "color", "").find("only lossless16 can be written as a PNG sequence"),
            std::string::npos);
  EXPECT_NE(refused("x.pfm", "side-by-side", "").find("a .pfm name holds only raw recordings"),
            std::string::npos);
  EXPECT_NE(refused("x.mp4", "color", "ffv1").find("the mp4 container cannot hold ffv1"),
            std::string::npos);
  EXPECT_NE(refused("x.xyz", "color", "").find("no container for this file name's extension"),
            std::string::npos);
  for (const char* name : {"x.mp4", "x.mp4.json", "x.mkv", "x.mkv.json", "x.png.json"}) {
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + name)) << name << " left behind";
  }
}

// Issue 17: an encoder that refuses to open (MPEG-4 cannot code a time base of 1/100000 s) is a
// clear error when the recording is made, and leaves nothing behind; run under the sanitizer build
// this early exit, like the others here, must leak nothing.
TEST(Recording, AnEncoderThatRefusesToOpenIsAClearErrorWhenTheRecordingIsMade) {
  const std::string dir = test::fresh_dir("refused");
  RecorderSettings settings = settings_for(dir + "/c.mp4", "color", "mpeg4");
  settings.encoder.frames_per_second = 100000;
  try {
    Recorder recorder(settings);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(
        std::string(e.what()).find("recording to " + dir + "/c.mp4: mpeg4 refused 64x48 yuv420p"),
        std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

// Issue 17: a recording that never came to exist leaves no sidecar claiming one.
TEST(Recording, ARecordingWithoutAFileLeavesNoSidecar) {
  const std::string dir = test::fresh_dir("no_file");
  {
    Recorder recorder(settings_for(dir + "/c.mp4", "color"));
    EXPECT_EQ(recorder.stop().sidecar_written, false);  // stopped before any frame
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/c.mp4.json"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/c.mp4"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/c.mp4.json.reserve"));
}

// Issue 24: every codec the program's own hint names records a file that decodes back.
TEST(Recording, EveryCodecTheHintNamesRecordsAndDecodesBack) {
  std::string hint;
  try {
    Recorder recorder(settings_for(test::fresh_dir("hint") + "/c.mp4", "color", "no-such-codec"));
  } catch (const RuntimeError& e) {
    hint = e.what();
  }
  const size_t open = hint.find("(try ");
  ASSERT_NE(open, std::string::npos) << hint;
  std::vector<std::string> codecs;
  std::string list = hint.substr(open + 5, hint.find(')', open) - open - 5);
  for (size_t at; (at = list.find(" or ")) != std::string::npos;) list.replace(at, 4, ", ");
  for (size_t start = 0; start < list.size();) {
    const size_t comma = std::min(list.find(", ", start), list.size());
    codecs.push_back(list.substr(start, comma - start));
    start = comma + 2;
  }
  ASSERT_GE(codecs.size(), 4u) << hint;
  for (const std::string& codec : codecs) {
    const std::string dir = test::fresh_dir("codec_" + codec);
    const std::string file = dir + (codec == "ffv1" ? "/c.mkv" : "/c.avi");
    const RecorderStatus status = record(settings_for(file, "color", codec), 6);
    ASSERT_EQ(status.error, "") << codec;
    const auto frames = decode_all(file, FfmpegVideoReader::Pixels::Rgb8);
    ASSERT_EQ(frames.size(), 6u) << codec;
    for (int i = 0; i < 6; ++i) {
      const ImageRgb8 expected =
          colorize_disparity(computed_frames()[i].result.disparity, 0.0f, 23.0f);
      EXPECT_LT(mean_abs_difference(frames[i].rgb, expected), kCodecTolerance)
          << codec << " frame " << i;
    }
  }
}

// Issue 17: parameters changed while recording are listed with the frame they took effect at.
TEST(Recording, TheSidecarListsEveryParameterChangeAtItsFrame) {
  const std::string dir = test::fresh_dir("changes");
  RecorderSettings settings = settings_for(dir + "/d.mkv", "lossless16");
  settings.params.p2 = 10;  // what was set when recording started; the first frame says 40
  StereoParams first = test_params();
  StereoParams later = first;
  later.p2 = 80;
  StereoParams last = later;
  last.uniqueness = 7;
  Recorder recorder(settings);
  for (int i = 0; i < 8; ++i) {
    RecordingFrame frame = recording_frame(computed_frames()[i]);
    frame.index = 100 + i;
    frame.params = i < 3 ? first : i < 6 ? later : last;
    frame.engine = i < 5 ? "cpu" : "cuda";
    ASSERT_TRUE(recorder.submit_waiting(std::move(frame)));
  }
  ASSERT_EQ(recorder.stop().error, "");
  const nlohmann::json doc = read_json(dir + "/d.mkv.json");
  EXPECT_EQ(doc["parameters"]["p2"], std::to_string(first.p2));
  EXPECT_EQ(doc["engine"], "cpu");
  const nlohmann::json& changes = doc["parameter_changes"];
  ASSERT_EQ(changes.size(), 3u) << changes.dump(2);
  EXPECT_EQ(changes[0]["file_index"], 3);
  EXPECT_EQ(changes[0]["source_index"], 103);
  EXPECT_EQ(changes[0]["parameters"], nlohmann::json({{"p2", "80"}}));
  EXPECT_FALSE(changes[0].contains("engine"));
  EXPECT_EQ(changes[1]["file_index"], 5);
  EXPECT_EQ(changes[1]["parameters"], nlohmann::json::object());
  EXPECT_EQ(changes[1]["engine"], "cuda");
  EXPECT_EQ(changes[2]["file_index"], 6);
  EXPECT_EQ(changes[2]["parameters"], nlohmann::json({{"uniqueness", "7"}}));
}

// Issue 24: the sidecar says why the recording ended, and only a clean end is "complete".
TEST(Recording, TheSidecarSaysHowTheRecordingEnded) {
  using Reason = RecordingStop::Reason;
  const struct {
    RecordingStop stop;
    const char* text;
    bool complete;
  } cases[] = {
      {{Reason::EndOfSource, 0, ""}, "end of source", true},
      {{Reason::FrameLimit, 0, ""}, "frame limit", true},
      {{Reason::StoppedByUser, 0, ""}, "stopped by the user", true},
      {{Reason::Interrupted, SIGINT, ""}, "interrupted by SIGINT", true},
      {{Reason::Interrupted, SIGTERM, ""}, "interrupted by SIGTERM", true},
      {{Reason::SourceError, 0, "cannot read image 'x.png'"}, "source error", false},
      {{Reason::ProcessingError, 0, "cannot write out/d.pfm"}, "processing error", false},
  };
  for (const auto& c : cases) {
    const std::string dir = test::fresh_dir("ended");
    Recorder recorder(settings_for(dir + "/d.mkv", "lossless16"));
    ASSERT_TRUE(recorder.submit_waiting(recording_frame(computed_frames()[0])));
    const RecorderStatus status = recorder.stop(c.stop);
    EXPECT_EQ(status.stop_reason, c.text);
    const nlohmann::json doc = read_json(dir + "/d.mkv.json");
    EXPECT_EQ(doc["finished"], true);
    EXPECT_EQ(doc["stop_reason"], c.text);
    EXPECT_EQ(doc["complete"], c.complete) << c.text;
    EXPECT_EQ(doc["error"], c.stop.message);
    EXPECT_EQ(doc["frame_count"], 1);
  }
}

// Runs a recording in a child process whose files may not grow past `limit` bytes (SIGXFSZ
// ignored, so the write fails with EFBIG instead of killing it). Returns the frames the child
// had accepted and the error it saw.
struct LimitedRun {
  int accepted = 0;
  std::string error;
};
LimitedRun record_with_file_size_limit(const RecorderSettings& settings, rlim_t limit, int frames) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_fds[0]);
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit rl{limit, limit};
    setrlimit(RLIMIT_FSIZE, &rl);
    int accepted = 0;
    std::string error;
    {
      Recorder recorder(settings);
      for (int i = 0; i < frames; ++i) {
        if (!recorder.submit_waiting(recording_frame(computed_frames()[i % 8]))) break;
        ++accepted;
      }
      error = recorder.stop().error;
    }
    const std::string message = std::to_string(accepted) + "\n" + error;
    (void)!write(pipe_fds[1], message.data(), message.size());
    close(pipe_fds[1]);
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child crashed";
  LimitedRun run;
  const auto newline = message.find('\n');
  if (newline == std::string::npos) return run;
  run.accepted = std::stoi(message.substr(0, newline));
  run.error = message.substr(newline + 1);
  return run;
}

TEST(Recording, AFileSizeLimitStopsLosslessRecordingAndKeepsADecodableFile) {
  computed_frames();  // compute before forking
  const std::string dir = test::fresh_dir("limit_mkv");
  const RecorderSettings settings = settings_for(dir + "/d.mkv", "lossless16");
  const int attempted = 400;
  const LimitedRun run = record_with_file_size_limit(settings, 40 * 1024, attempted);
  EXPECT_NE(run.error.find("recording stopped"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("File too large"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("d.mkv"), std::string::npos) << run.error;
  EXPECT_LT(run.accepted, attempted);

  const auto frames = decode_all(dir + "/d.mkv", FfmpegVideoReader::Pixels::Gray16);
  ASSERT_GT(frames.size(), 3u) << "the frames before the failure must decode";
  EXPECT_LT(frames.size(), static_cast<size_t>(attempted));
  for (size_t i = 0; i < frames.size(); ++i) {
    ASSERT_EQ(settings.encoder.u16_encoding.decode(frames[i].gray16),
              computed_frames()[i % 8].result.disparity_fixed)
        << "frame " << i;
  }
  const nlohmann::json sidecar = read_json(dir + "/d.mkv.json");
  EXPECT_NE(sidecar["error"].get<std::string>().find("File too large"), std::string::npos);
}

TEST(Recording, AFileSizeLimitLeavesAFragmentedMp4PlayableUpToTheFailure) {
  computed_frames();
  const std::string dir = test::fresh_dir("limit_mp4");
  // The limit is half of what the whole recording takes, measured first without one.
  const int attempted = 240;
  const RecorderSettings full = settings_for(dir + "/full.mp4", "raw");
  {
    Recorder recorder(full);
    for (int i = 0; i < attempted; ++i) recorder.submit_waiting(recording_frame(computed_frames()[i % 8]));
    ASSERT_EQ(recorder.stop().error, "");
  }
  const auto full_size = std::filesystem::file_size(dir + "/full.mp4");
  const RecorderSettings settings = settings_for(dir + "/c.mp4", "raw");
  const LimitedRun run = record_with_file_size_limit(settings, full_size / 2, attempted);
  EXPECT_NE(run.error.find("File too large"), std::string::npos) << run.error;
  const auto frames = decode_all(dir + "/c.mp4", FfmpegVideoReader::Pixels::Rgb8);
  ASSERT_GE(frames.size(), 30u) << "at least the first one-second fragment must play";
  EXPECT_LT(frames.size(), static_cast<size_t>(attempted));
  for (size_t i = 0; i < frames.size(); i += 29) {
    EXPECT_LT(mean_abs_difference(crop(frames[i].rgb, 0, kWidth), computed_frames()[i % 8].scene.left),
              kCodecTolerance)
        << "frame " << i;
  }
}

}  // namespace
}  // namespace sv
