// The CLI's rectification (issue 5): run_headless matches each pair of a --calib source through
// match_rectifying_pair, so the CPU engine gets pairs rectified on the host, exactly as before,
// and the CUDA engine gets them raw from the second pair on and remaps them on the GPU. The CPU
// run's disparities equal the CPU engine on the pairs rectified by the rectifier (cv::remap);
// the CUDA run's equal the CPU run's bit for bit (skipped without a CUDA device).
#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "src/app/cli_options.h"
#include "src/app/headless_runner.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "src/io/stereo_calibration.h"
#include "src/io/stereo_rectifier.h"
#include "tests/io/io_test_support.h"
#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/device_info.h"
#endif

namespace sv {
namespace {

constexpr int kWidth = 96, kHeight = 64, kFrames = 3;

// A rig with distortion and a small rotation, so the remap moves every pixel.
std::string write_calibration(const std::string& dir) {
  const cv::Matx33d K1(90, 0, 47.5, 0, 91, 31.25, 0, 0, 1), K2(92, 0, 49, 0, 90, 30, 0, 0, 1);
  const cv::Matx<double, 1, 5> D1(-0.12, 0.03, 0.001, -0.0008, 0.0);
  const cv::Matx<double, 1, 5> D2(-0.10, 0.02, -0.0005, 0.001, 0.0);
  cv::Matx33d R;
  cv::Rodrigues(cv::Vec3d(0.02, -0.03, 0.015), R);
  const std::string path = dir + "/rig.yaml";
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  fs << "image_width" << kWidth << "image_height" << kHeight << "K1" << cv::Mat(K1) << "D1"
     << cv::Mat(D1) << "K2" << cv::Mat(K2) << "D2" << cv::Mat(D2) << "R" << cv::Mat(R) << "T"
     << cv::Mat(cv::Vec3d(-0.1, 0.003, 0.002));
  return path;
}

std::string frame_path(const std::string& dir, const char* side, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "/%s_%02d.ppm", side, index);
  return dir + name;
}

SyntheticFrame raw_frame(int index) {
  SyntheticSceneConfig config;
  config.width = kWidth;
  config.height = kHeight;
  config.max_disparity = 24;
  return SyntheticScene(config).render(index);
}

StereoParams small_params() {
  StereoParams params;
  params.num_disparities = 24;
  return params;
}

class HeadlessRectification : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::fresh_dir("headless_rectification");
    calibration_ = write_calibration(dir_);
    for (int i = 0; i < kFrames; ++i) {
      const SyntheticFrame f = raw_frame(i);
      write_ppm(frame_path(dir_, "l", i), f.left);
      write_ppm(frame_path(dir_, "r", i), f.right);
    }
  }

  struct Run {
    std::string out_dir;  // the disparities
    std::string out;      // what the run printed
  };
  // Runs the CLI's headless loop over the raw sequence; the disparities land in dir/<engine>.
  Run run(const std::string& engine) {
    CliOptions options;
    options.source = "files";
    options.left_path = dir_ + "/l_%02d.ppm";
    options.right_path = dir_ + "/r_%02d.ppm";
    options.calib_path = calibration_;
    options.engine = engine;
    options.params = small_params();
    options.out_dir = dir_ + "/" + engine;
    std::ostringstream out, err;
    const int code = run_headless(options, out, err);
    EXPECT_EQ(code, 0) << err.str();
    EXPECT_NE(out.str().find("done: " + std::to_string(kFrames) + " frames"), std::string::npos)
        << out.str() << err.str();
    return {options.out_dir, out.str()};
  }

  static ImageF32 disparity(const std::string& out_dir, int index) {
    char name[32];
    std::snprintf(name, sizeof name, "/disparity_%06d.pfm", index);
    return read_pfm(out_dir + name);
  }

  std::string dir_, calibration_;
};

bool same_bits(const ImageF32& a, const ImageF32& b) {
  if (!a.same_size(b.width(), b.height())) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (!(x == y || (std::isinf(x) && std::isinf(y)))) return false;
  }
  return true;
}

TEST_F(HeadlessRectification, CpuRunMatchesThePairsRectifiedOnTheHost) {
  const Run cpu_run = run("cpu");
  EXPECT_NE(cpu_run.out.find("rectifying on the host\n"), std::string::npos) << cpu_run.out;
  EXPECT_EQ(cpu_run.out.find("on the GPU"), std::string::npos) << cpu_run.out;
  const std::string& out_dir = cpu_run.out_dir;
  const StereoRectifier rectifier(load_stereo_calibration(calibration_), kWidth, kHeight);
  ASSERT_TRUE(rectifier.remaps());
  CpuEngine cpu;
  for (int i = 0; i < kFrames; ++i) {
    SyntheticFrame f = raw_frame(i);
    const ImageRgb8 raw_left = f.left;
    rectifier.rectify(f.left, f.right);
    ASSERT_NE(f.left, raw_left);  // the calibration does move the views
    const ImageF32 expected = cpu.compute(f.left, f.right, small_params()).disparity;
    const ImageF32 written = disparity(out_dir, i);
    EXPECT_TRUE(same_bits(written, expected)) << "frame " << i;
    // And not merely the raw pair's result.
    EXPECT_FALSE(same_bits(written, cpu.compute(raw_left, raw_frame(i).right, small_params())
                                        .disparity))
        << "frame " << i;
  }
}

TEST_F(HeadlessRectification, CudaRunRemapsOnTheGpuAndEqualsTheCpuRun) {
#ifdef STEREOVIEW_HAS_CUDA
  const cuda::DeviceInfo device = cuda::query_device();
  if (!device.available) GTEST_SKIP() << "needs a CUDA device: " << device.reason;
  const Run cpu_run = run("cpu");
  const Run cuda_run = run("cuda");
  // Said once: every pair after the first (which the source rectified) reached the engine raw.
  EXPECT_NE(cuda_run.out.find("rectifying on the GPU (cuda engine)\n"), std::string::npos)
      << cuda_run.out;
  EXPECT_EQ(cuda_run.out.find("on the host"), std::string::npos) << cuda_run.out;
  for (int i = 0; i < kFrames; ++i) {
    EXPECT_TRUE(same_bits(disparity(cuda_run.out_dir, i), disparity(cpu_run.out_dir, i)))
        << "frame " << i;
  }
#else
  GTEST_SKIP() << "this build has no CUDA engine";
#endif
}

}  // namespace
}  // namespace sv
