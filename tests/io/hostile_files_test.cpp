// Files that are not what their names say, for every reader of the io layer: a FIFO (which
// blocks a reader that opens it), a device, a folder, and files larger than any real one of
// their kind. Each is refused with a one-line reason before it is read (src/core/input_file.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/io/image_sequence_source.h"
#include "src/io/png_io.h"
#include "src/io/stereo_calibration.h"
#include "src/io/video_file_reader.h"
#include "tests/io/io_test_support.h"
#include "tests/support/fifo_guard.h"
#if STEREOVIEW_HAS_RECORDING
#include "src/io/ffmpeg_video_reader.h"
#endif

namespace sv {
namespace {

using test::fresh_dir;

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `read` on a FIFO at `path` and returns its error; fails the test when it blocked.
std::string error_on_fifo(const std::string& path, const std::function<void(const std::string&)>& read) {
  test::FifoGuard fifo(path);
  std::string message;
  EXPECT_TRUE(fifo.returns_within(10.0, [&] { message = error_of([&] { read(fifo.path()); }); }))
      << "blocked on the FIFO " << path;
  return message;
}

TEST(HostileFiles, ImageReadersRefuseFifosAndDevices) {
  const std::string dir = fresh_dir("hostile_images");
  for (const char* name : {"fifo.png", "fifo.pgm", "fifo.pfm", "fifo.tif"}) {
    const std::string message =
        error_on_fifo(dir + "/" + name, [](const std::string& p) { read_image_full_depth(p); });
    EXPECT_TRUE(contains(message, "a FIFO (named pipe), not a regular file")) << name << ": " << message;
  }
  std::filesystem::create_symlink("/dev/null", dir + "/null.png");
  EXPECT_TRUE(contains(error_of([&] { read_image_rgb(dir + "/null.png"); }),
                       "a character device, not a regular file"));
}

TEST(HostileFiles, AnImageFileLargerThanAnyImageIsRefusedUnread) {
  const std::string dir = fresh_dir("huge_image");
  const std::string path = dir + "/huge.png";
  std::ofstream(path) << "\x89PNG";
  std::filesystem::resize_file(path, (uint64_t{5} << 30));  // sparse: no disk used
  const std::string message = error_of([&] { read_image_rgb(path); });
  EXPECT_TRUE(contains(message, "huge.png': it holds 5.0 GiB, more than any image file")) << message;
}

uint32_t crc32_of(const std::string& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : bytes) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::string big_endian(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// A PNG of a valid signature and IHDR (8-bit gray, `width` x `height`) and nothing else.
std::string png_header(uint32_t width, uint32_t height) {
  const std::string ihdr = "IHDR" + big_endian(width) + big_endian(height) + std::string("\x08\x00\x00\x00\x00", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + big_endian(13) + ihdr + big_endian(crc32_of(ihdr));
}

// Headers announcing sizes no memory holds, or none at all: refused, never decoded into a crash.
TEST(HostileFiles, PngHeadersOfAbsurdSizesAreInputErrors) {
  const std::string dir = fresh_dir("hostile_png");
  const struct {
    uint32_t width, height;
  } sizes[] = {{0, 0}, {1, 0}, {0x7FFFFFFFu, 1}, {0xFFFFFFFFu, 0xFFFFFFFFu}, {100000, 100000}, {40000, 20000}};
  for (const auto& size : sizes) {
    const std::string path = dir + "/h" + std::to_string(size.width) + "x" + std::to_string(size.height) + ".png";
    std::ofstream(path, std::ios::binary) << png_header(size.width, size.height);
    for (const auto& read : std::vector<std::function<void()>>{
             [&] { read_image_rgb(path); }, [&] { read_image_u16(path); },
             [&] { read_image_full_depth(path); }}) {
      const std::string message = error_of(read);
      EXPECT_TRUE(contains(message, "cannot read image '" + path + "'")) << message;
    }
  }
}

TEST(HostileFiles, VideoReadersRefuseFifos) {
  const std::string dir = fresh_dir("hostile_videos");
  EXPECT_TRUE(contains(error_on_fifo(dir + "/fifo.avi", [](const std::string& p) { VideoFileReader{p}; }),
                       "not a regular file"));
#if STEREOVIEW_HAS_RECORDING
  const std::string message = error_on_fifo(dir + "/fifo.mkv", [](const std::string& p) {
    FfmpegVideoReader(p, FfmpegVideoReader::Pixels::Gray16);
  });
  EXPECT_TRUE(contains(message, "fifo.mkv': a FIFO (named pipe), not a regular file")) << message;
#endif
}

TEST(HostileFiles, CalibrationsRefuseFifosAndHugeFiles) {
  const std::string dir = fresh_dir("hostile_calibration");
  const std::string fifo_message =
      error_on_fifo(dir + "/rig.yaml", [](const std::string& p) { load_stereo_calibration(p); });
  EXPECT_TRUE(contains(fifo_message, "a FIFO (named pipe), not a regular file")) << fifo_message;

  const std::string huge = dir + "/huge.yaml";
  std::ofstream(huge) << "%YAML:1.0\n";
  std::filesystem::resize_file(huge, uint64_t{17} << 20);
  const std::string message = error_of([&] { load_stereo_calibration(huge); });
  EXPECT_TRUE(contains(message, "huge.yaml': it holds 17.0 MiB, more than the 8.0 MiB such a file")) << message;
}

TEST(HostileFiles, SequencesSkipFifosInFoldersAndRefuseThemByName) {
  const std::string dir = fresh_dir("hostile_sequence");
  cv::imwrite(dir + "/a1.png", test::flat_frame(8, 8, 1));
  test::FifoGuard fifo(dir + "/a2.png");
  // A folder lists only regular files, so the FIFO is never opened.
  EXPECT_EQ(list_image_sequence(dir).size(), 1u);
  EXPECT_EQ(list_image_sequence(dir + "/a%d.png").size(), 1u);
  EXPECT_TRUE(contains(error_of([&] { list_image_sequence(fifo.path()); }),
                       "a2.png': a FIFO (named pipe), not a regular file"));
}

}  // namespace
}  // namespace sv
