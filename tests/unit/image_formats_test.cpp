#include "src/core/image_formats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "src/core/error.h"
#include "tests/support/fifo_guard.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

class ImageFormatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("sv_image_formats_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  void write_bytes(const std::string& file, const std::string& bytes) const {
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  std::string read_bytes(const std::string& file) const {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  fs::path dir_;
};

std::string float_bytes_little(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  return s;
}

std::string float_bytes_big(float v) {
  std::string s = float_bytes_little(v);
  return std::string(s.rbegin(), s.rend());
}

template <typename Fn>
std::string error_message(Fn fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError thrown)";
}

TEST_F(ImageFormatsTest, PfmRoundTripKeepsEveryBitIncludingInfinity) {
  ImageF32 image(3, 2);
  const float values[] = {0.0f,     -1.5f,
                          63.0625f, std::numeric_limits<float>::infinity(),
                          1e-30f,   -std::numeric_limits<float>::infinity()};
  for (int i = 0; i < 6; ++i) image.data()[i] = values[i];
  write_pfm(path("a.pfm"), image);
  const ImageF32 back = read_pfm(path("a.pfm"));
  ASSERT_EQ(back.width(), 3);
  ASSERT_EQ(back.height(), 2);
  EXPECT_EQ(back, image);
  EXPECT_TRUE(std::isinf(back.at(0, 1)) && back.at(0, 1) > 0);
}

TEST_F(ImageFormatsTest, PfmIsWrittenLittleEndianBottomRowFirst) {
  ImageF32 image(2, 2);
  image.at(0, 0) = 1.0f;  // top row
  image.at(1, 0) = 2.0f;
  image.at(0, 1) = 3.0f;  // bottom row: first in the file
  image.at(1, 1) = 4.0f;
  write_pfm(path("b.pfm"), image);
  const std::string expected = std::string("Pf\n2 2\n-1\n") + float_bytes_little(3.0f) +
                               float_bytes_little(4.0f) + float_bytes_little(1.0f) +
                               float_bytes_little(2.0f);
  EXPECT_EQ(read_bytes(path("b.pfm")), expected);
}

TEST_F(ImageFormatsTest, ReadsHandWrittenLittleEndianPfmBottomUp) {
  write_bytes(path("c.pfm"), std::string("Pf\n2 3\n-1.0\n") + float_bytes_little(5.0f) +
                                 float_bytes_little(6.0f) + float_bytes_little(3.0f) +
                                 float_bytes_little(4.0f) + float_bytes_little(1.0f) +
                                 float_bytes_little(2.0f));
  const ImageF32 image = read_pfm(path("c.pfm"));
  ASSERT_EQ(image.width(), 2);
  ASSERT_EQ(image.height(), 3);
  EXPECT_EQ(image.at(0, 0), 1.0f);
  EXPECT_EQ(image.at(1, 0), 2.0f);
  EXPECT_EQ(image.at(0, 1), 3.0f);
  EXPECT_EQ(image.at(1, 1), 4.0f);
  EXPECT_EQ(image.at(0, 2), 5.0f);
  EXPECT_EQ(image.at(1, 2), 6.0f);
}

TEST_F(ImageFormatsTest, ReadsBigEndianPfmWithPositiveScale) {
  // 1.5f = 0x3FC00000 and -2.0f = 0xC0000000 stored most significant byte first.
  write_bytes(path("d.pfm"), std::string("Pf\n2 1\n1.0\n") + std::string("\x3F\xC0\x00\x00", 4) +
                                 std::string("\xC0\x00\x00\x00", 4));
  const ImageF32 image = read_pfm(path("d.pfm"));
  ASSERT_EQ(image.width(), 2);
  ASSERT_EQ(image.height(), 1);
  EXPECT_EQ(image.at(0, 0), 1.5f);
  EXPECT_EQ(image.at(1, 0), -2.0f);
  EXPECT_EQ(float_bytes_big(1.5f), std::string("\x3F\xC0\x00\x00", 4));
}

TEST_F(ImageFormatsTest, ThreeChannelPfmIsReadAsItsFirstChannel) {
  std::string data = "PF\n2 1\n-1\n";
  for (float v : {7.0f, 70.0f, 700.0f, 8.0f, 80.0f, 800.0f}) data += float_bytes_little(v);
  write_bytes(path("e.pfm"), data);
  const ImageF32 image = read_pfm(path("e.pfm"));
  ASSERT_EQ(image.width(), 2);
  EXPECT_EQ(image.at(0, 0), 7.0f);
  EXPECT_EQ(image.at(1, 0), 8.0f);
}

TEST_F(ImageFormatsTest, PfmErrorsNameTheProblem) {
  write_bytes(path("bad.pfm"), "Pg\n1 1\n-1\n" + float_bytes_little(1.0f));
  EXPECT_NE(error_message([&] { read_pfm(path("bad.pfm")); }).find("bad magic"), std::string::npos);
  write_bytes(path("short.pfm"), "Pf\n2 2\n-1\n" + float_bytes_little(1.0f));
  EXPECT_NE(error_message([&] {
              read_pfm(path("short.pfm"));
            }).find("truncated pixel data (expected 16 bytes, got 4)"),
            std::string::npos);
  write_bytes(path("zero.pfm"), "Pf\n1 1\n0\n" + float_bytes_little(1.0f));
  EXPECT_NE(error_message([&] { read_pfm(path("zero.pfm")); }).find("scale"), std::string::npos);
}

TEST_F(ImageFormatsTest, Pgm8RoundTrip) {
  ImageU8 image(5, 3);
  for (size_t i = 0; i < image.size(); ++i) image.data()[i] = static_cast<uint8_t>(i * 17);
  write_pgm(path("a.pgm"), image);
  EXPECT_EQ(read_bytes(path("a.pgm")).substr(0, 11), "P5\n5 3\n255\n");
  EXPECT_EQ(read_pgm8(path("a.pgm")), image);
  // The 16-bit reader keeps 8-bit values unchanged.
  const ImageU16 wide = read_pgm16(path("a.pgm"));
  ASSERT_EQ(wide.size(), image.size());
  for (size_t i = 0; i < image.size(); ++i) EXPECT_EQ(wide.data()[i], image.data()[i]);
}

TEST_F(ImageFormatsTest, Pgm16RoundTripKeepsValuesAbove255BigEndian) {
  ImageU16 image(3, 1);
  image.at(0, 0) = 256;
  image.at(1, 0) = 1000;
  image.at(2, 0) = 65535;
  write_pgm(path("b.pgm"), image);
  const std::string bytes = read_bytes(path("b.pgm"));
  EXPECT_EQ(bytes, std::string("P5\n3 1\n65535\n") + std::string("\x01\x00\x03\xE8\xFF\xFF", 6));
  EXPECT_EQ(read_pgm16(path("b.pgm")), image);
  // The 8-bit reader keeps the high byte.
  const ImageU8 narrow = read_pgm8(path("b.pgm"));
  EXPECT_EQ(narrow.at(0, 0), 1);
  EXPECT_EQ(narrow.at(1, 0), 3);
  EXPECT_EQ(narrow.at(2, 0), 255);
}

TEST_F(ImageFormatsTest, PgmHeaderCommentsAreSkipped) {
  write_bytes(path("c.pgm"), "P5\n# made by hand\n3 # width\n  2\n# maxval next\n255\n" +
                                 std::string("\x01\x02\x03\x0A\x0B\x0C", 6));
  const ImageU8 image = read_pgm8(path("c.pgm"));
  ASSERT_EQ(image.width(), 3);
  ASSERT_EQ(image.height(), 2);
  EXPECT_EQ(image.at(0, 0), 1);
  EXPECT_EQ(image.at(2, 0), 3);
  EXPECT_EQ(image.at(0, 1), 10);
  EXPECT_EQ(image.at(2, 1), 12);
}

TEST_F(ImageFormatsTest, PpmRoundTripAndGrayReplication) {
  ImageRgb8 image(2, 2);
  image.at(0, 0) = Rgb8{255, 0, 0};
  image.at(1, 0) = Rgb8{0, 255, 0};
  image.at(0, 1) = Rgb8{0, 0, 255};
  image.at(1, 1) = Rgb8{1, 2, 3};
  write_ppm(path("a.ppm"), image);
  EXPECT_EQ(read_bytes(path("a.ppm")).substr(0, 11), "P6\n2 2\n255\n");
  EXPECT_EQ(read_ppm(path("a.ppm")), image);

  write_bytes(path("g.pgm"), "P5 2 1 255\n" + std::string("\x07\xC8", 2));
  const ImageRgb8 gray = read_ppm(path("g.pgm"));
  EXPECT_EQ(gray.at(0, 0), (Rgb8{7, 7, 7}));
  EXPECT_EQ(gray.at(1, 0), (Rgb8{200, 200, 200}));
}

TEST_F(ImageFormatsTest, TruncatedPixelDataReportsByteCounts) {
  write_bytes(path("t.pgm"), "P5\n50 40\n255\n" + std::string(10, 'x'));
  const std::string message = error_message([&] { read_pgm8(path("t.pgm")); });
  EXPECT_NE(message.find(path("t.pgm") + ": truncated pixel data (expected 2000 bytes, got 10)"),
            std::string::npos)
      << message;
  // 16-bit samples need twice the bytes.
  write_bytes(path("t16.pgm"), "P5\n2 2\n1000\n" + std::string(6, 'x'));
  EXPECT_NE(error_message([&] { read_pgm16(path("t16.pgm")); }).find("(expected 8 bytes, got 6)"),
            std::string::npos);
}

TEST_F(ImageFormatsTest, MissingFileAndBadHeadersAreInputErrors) {
  const std::string missing = path("nope.pgm");
  const std::string message = error_message([&] { read_pgm8(missing); });
  EXPECT_NE(message.find(missing), std::string::npos) << message;
  EXPECT_THROW(read_pfm(missing), InputError);
  EXPECT_THROW(read_ppm(missing), InputError);

  write_bytes(path("ascii.pgm"), "P2\n1 1\n255\n7\n");
  EXPECT_NE(error_message([&] { read_pgm8(path("ascii.pgm")); }).find("bad magic 'P2'"),
            std::string::npos);
  write_bytes(path("colour.ppm"), "P6\n1 1\n255\nabc");
  EXPECT_NE(error_message([&] { read_pgm8(path("colour.ppm")); }).find("bad magic 'P6'"),
            std::string::npos);
  write_bytes(path("width.pgm"), "P5\nabc 1\n255\nx");
  EXPECT_NE(error_message([&] { read_pgm8(path("width.pgm")); }).find("width"), std::string::npos);
  write_bytes(path("maxval.pgm"), "P5\n1 1\n0\nx");
  EXPECT_NE(error_message([&] { read_pgm8(path("maxval.pgm")); }).find("maxval"),
            std::string::npos);
  write_bytes(path("header.pgm"), "P5\n4");
  EXPECT_NE(error_message([&] { read_pgm8(path("header.pgm")); }).find("truncated header"),
            std::string::npos);
}

// A FIFO named like an image used to block the reader (no writer) and a link to a device
// such as /dev/zero never to end: every reader refuses what is not a regular file, unopened.
TEST_F(ImageFormatsTest, ReadersRefuseFifosDevicesAndFolders) {
  using Reader = std::function<void(const std::string&)>;
  const std::vector<std::pair<std::string, Reader>> readers = {
      {"pgm8", [](const std::string& p) { read_pgm8(p); }},
      {"pgm16", [](const std::string& p) { read_pgm16(p); }},
      {"ppm", [](const std::string& p) { read_ppm(p); }},
      {"netpbm", [](const std::string& p) { read_netpbm_full_depth(p); }},
      {"pfm", [](const std::string& p) { read_pfm(p); }}};
  fs::create_symlink("/dev/null", path("device.pgm"));
  fs::create_directory(path("folder.pgm"));
  for (const auto& [name, read] : readers) {
    EXPECT_EQ(error_message([&] { read(path("device.pgm")); }),
              "cannot read image '" + path("device.pgm") + "': a character device, not a regular file")
        << name;
    EXPECT_EQ(error_message([&] { read(path("folder.pgm")); }),
              "cannot read image '" + path("folder.pgm") + "': a folder, not a regular file")
        << name;
    test::FifoGuard fifo(path("fifo.pgm"));
    std::string message;
    EXPECT_TRUE(fifo.returns_within(5.0, [&] { message = error_message([&] { read(fifo.path()); }); }))
        << name << " blocked on a FIFO";
    EXPECT_EQ(message, "cannot read image '" + fifo.path() + "': a FIFO (named pipe), not a regular file")
        << name;
  }
}

TEST_F(ImageFormatsTest, HeaderLongerThanAnyRealOneIsRefused) {
  write_bytes(path("comment.pgm"), "P5\n#" + std::string((1 << 20) + 10, 'c') + "\n1 1\n255\nx");
  EXPECT_NE(error_message([&] { read_pgm8(path("comment.pgm")); }).find("header longer than"),
            std::string::npos);
}

TEST_F(ImageFormatsTest, OnlyTheAnnouncedRasterIsRead) {
  // Netpbm allows more images after the first; the reader takes the first and ignores the rest.
  write_bytes(path("two.pgm"), "P5\n2 1\n255\n\x05\x06P5\n2 1\n255\n\x07\x08");
  const ImageU8 image = read_pgm8(path("two.pgm"));
  EXPECT_EQ(image.at(0, 0), 5);
  EXPECT_EQ(image.at(1, 0), 6);
}

TEST_F(ImageFormatsTest, FullDepthNetpbmKeeps16BitSamples) {
  ImageU16 gray(3, 1);
  gray.at(0, 0) = 0x0102;
  gray.at(1, 0) = 0x00FF;  // only the low byte set: lost by an 8-bit read
  gray.at(2, 0) = 0xFFFF;
  write_pgm(path("g16.pgm"), gray);
  const NetpbmImage deep = read_netpbm_full_depth(path("g16.pgm"));
  EXPECT_EQ(deep.gray16, gray);
  EXPECT_EQ(deep.view.at(0, 0), (Rgb8{1, 1, 1}));  // the high byte
  EXPECT_EQ(deep.view.at(1, 0), (Rgb8{0, 0, 0}));
  EXPECT_EQ(deep.view.at(2, 0), (Rgb8{255, 255, 255}));

  // 16-bit colour: gray by rgb_to_gray's weights on the 16-bit values, view from the high bytes.
  write_bytes(path("c16.ppm"), "P6\n1 1\n65535\n" + std::string("\x12\x34\x56\x78\x9A\xBC", 6));
  const NetpbmImage colour = read_netpbm_full_depth(path("c16.ppm"));
  ASSERT_EQ(colour.gray16.width(), 1);
  EXPECT_EQ(colour.gray16.at(0, 0), (77 * 0x1234 + 150 * 0x5678 + 29 * 0x9ABC + 128) >> 8);
  EXPECT_EQ(colour.view.at(0, 0), (Rgb8{0x12, 0x56, 0x9A}));

  // 8-bit files leave gray16 empty and read as read_ppm does.
  ImageRgb8 rgb(2, 1);
  rgb.at(0, 0) = Rgb8{1, 2, 3};
  rgb.at(1, 0) = Rgb8{200, 100, 50};
  write_ppm(path("c8.ppm"), rgb);
  const NetpbmImage eight = read_netpbm_full_depth(path("c8.ppm"));
  EXPECT_TRUE(eight.gray16.empty());
  EXPECT_EQ(eight.view, rgb);
}

// Damaged and hostile headers: each is an InputError naming the problem, never a crash, a huge
// allocation or a read past the data (the sanitizer build runs this too).
TEST_F(ImageFormatsTest, HostileHeadersAreInputErrors) {
  const struct {
    const char* name;
    std::string bytes;
    const char* message;
  } cases[] = {
      {"empty.pgm", "", "too short"},
      {"one.pgm", "P", "too short"},
      {"negative_width.pgm", "P5\n-1 1\n255\nx", "bad width"},
      {"negative_height.pgm", "P5\n1 -1\n255\nx", "bad height"},
      {"long_width.pgm", "P5\n99999999999999999999 1\n255\nx", "bad width"},
      {"int_max.pgm", "P5\n2147483647 1\n255\nx", "is too large"},
      {"int_max_square.ppm", "P6\n2147483647 2147483647\n65535\nx", "is too large"},
      {"beyond_int.pgm", "P5\n2147483648 1\n255\nx", "out of range"},
      {"huge_raster.pgm", "P5\n16384 16384\n255\nxx", "(expected 268435456 bytes, got 2)"},
      {"maxval_zero.pgm", "P5\n1 1\n0\nx", "maxval"},
      {"maxval_big.pgm", "P5\n1 1\n65536\nx", "maxval"},
      {"maxval_minus.pgm", "P5\n1 1\n-255\nx", "maxval"},
      {"no_space.pgm", "P5\n1 1\n255", "truncated header"},
      {"comment_only.pgm", "P5\n# nothing else", "truncated header"},
      {"nul.pgm", std::string("P5\n1\0 1\n255\nx", 14), "bad width"},
      {"pfm_nan.pfm", "Pf\n1 1\nnan\nxxxx", "bad scale"},
      {"pfm_inf.pfm", "Pf\n1 1\ninf\nxxxx", "bad scale"},
      {"pfm_overflow.pfm", "Pf\n1 1\n1e999\nxxxx", "bad scale"},
      {"pfm_zero.pfm", "Pf\n1 1\n-0\nxxxx", "scale"},
      {"pfm_negative.pfm", "Pf\n-5 3\n-1\nxxxx", "bad width"},
      {"pfm_colour_short.pfm", "PF\n3 3\n-1\n" + std::string(36, 'x'), "(expected 108 bytes, got 36)"},
      {"pfm_huge.pfm", "Pf\n16384 16384\n-1\nxxxx", "(expected 1073741824 bytes, got 4)"},
  };
  for (const auto& c : cases) {
    write_bytes(path(c.name), c.bytes);
    const bool pfm = std::string(c.name).find(".pfm") != std::string::npos;
    const std::string message =
        error_message([&] { pfm ? (void)read_pfm(path(c.name)) : (void)read_netpbm_full_depth(path(c.name)); });
    EXPECT_NE(message.find(c.message), std::string::npos) << c.name << ": " << message;
    EXPECT_EQ(message.rfind(path(c.name), 0), 0u) << c.name << ": " << message;
  }
}

TEST_F(ImageFormatsTest, WritingIntoAMissingDirectoryIsARuntimeError) {
  const std::string target = path("no_such_dir/out");
  EXPECT_THROW(write_pfm(target + ".pfm", ImageF32(2, 2)), RuntimeError);
  EXPECT_THROW(write_pgm(target + ".pgm", ImageU8(2, 2)), RuntimeError);
  EXPECT_THROW(write_pgm(target + ".pgm", ImageU16(2, 2)), RuntimeError);
  EXPECT_THROW(write_ppm(target + ".ppm", ImageRgb8(2, 2)), RuntimeError);
}

}  // namespace
}  // namespace sv
