#pragma once

// Helpers for the io tests: fresh temp folders, and videos / images written with OpenCV so every
// file the sources read is made by the test itself.

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <unistd.h>

#include "src/core/block_pool.h"
#include "src/core/image.h"
#include "src/core/image_formats.h"
#include "tests/support/counting_host_memory.h"

namespace sv::test {

inline std::string fresh_dir(const std::string& name) {
  static int counter = 0;
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    ("stereoview_io_" + name + "_" + std::to_string(getpid()) +
                                     "_" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// A Middlebury 2014 scene folder `name`/scene: the views im0.png and im1.png and a constant
// ground truth disp0GT.pfm of `disparity`. Returns the scene's path.
inline std::string write_middlebury_scene(const std::string& name, const cv::Mat& left,
                                          const cv::Mat& right, float disparity) {
  const std::string dir = fresh_dir(name) + "/scene";
  std::filesystem::create_directories(dir);
  cv::imwrite(dir + "/im0.png", left);
  cv::imwrite(dir + "/im1.png", right);
  write_pfm(dir + "/disp0GT.pfm", ImageF32(left.cols, left.rows, disparity));
  return dir;
}

// A BGR frame of one gray level: survives MJPEG coding to within a few levels, so a frame's
// identity can be read back from its mean.
inline cv::Mat flat_frame(int width, int height, int level) {
  return cv::Mat(height, width, CV_8UC3, cv::Scalar::all(level));
}

// Two flat views packed into one frame: left `left_level`, right `right_level`.
inline cv::Mat packed_frame(int view_width, int view_height, int left_level, int right_level,
                            bool side_by_side) {
  const int w = side_by_side ? 2 * view_width : view_width;
  const int h = side_by_side ? view_height : 2 * view_height;
  cv::Mat frame = flat_frame(w, h, left_level);
  const cv::Rect right = side_by_side ? cv::Rect(view_width, 0, view_width, view_height)
                                      : cv::Rect(0, view_height, view_width, view_height);
  frame(right).setTo(cv::Scalar::all(right_level));
  return frame;
}

// The gray level of frame i in the generated videos (distinct, far apart, away from 0 and 255).
inline int level_of_frame(int i, int offset = 0) { return 20 + 9 * i + offset; }

// Writes `frames` as MJPEG in AVI, the codec Debian's OpenCV + FFmpeg always has.
inline void write_mjpeg_avi(const std::string& path, const std::vector<cv::Mat>& frames,
                            double fps = 10.0) {
  ASSERT_FALSE(frames.empty());
  cv::VideoWriter writer(path, cv::CAP_FFMPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps,
                         frames.front().size(), true);
  ASSERT_TRUE(writer.isOpened()) << "OpenCV cannot write MJPEG AVI to " << path;
  writer.set(cv::VIDEOWRITER_PROP_QUALITY, 100);
  for (const auto& f : frames) writer.write(f);
}

inline double mean_level(const ImageRgb8& image) {
  double sum = 0;
  for (const Rgb8& p : image.pixels()) sum += (p.r + p.g + p.b) / 3.0;
  return image.empty() ? -1 : sum / static_cast<double>(image.size());
}

// A pool of `blocks` blocks of `bytes`, each filled with a different garbage byte, as blocks coming
// back from earlier frames are: a pixel a source forgot to write would show.
inline std::shared_ptr<BlockPool> dirty_pool(size_t bytes, int blocks) {
  auto pool = std::make_shared<BlockPool>(std::make_shared<CountingHostMemory>(), blocks);
  std::vector<std::shared_ptr<PixelBlock>> all;
  for (int i = 0; i < blocks; ++i) {
    all.push_back(pool->acquire(bytes));
    std::memset(all.back()->data(), 0x5A + 3 * i, bytes);
  }
  return pool;
}

}  // namespace sv::test
