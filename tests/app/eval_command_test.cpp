// The eval command, the dataset loader and the PNG layer, on tiny datasets written here in every
// layout the loader knows, and (when present) on the shared Middlebury data.

#include "src/app/eval_command.h"
#include "src/app/eval_pictures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/stereo_engine.h"
#include "src/core/image_formats.h"
#include "src/io/dataset_loader.h"
#include "src/io/png_io.h"
#include "tests/support/fifo_guard.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

constexpr float kUnknown = std::numeric_limits<float>::infinity();

// A fresh folder under the system temp folder, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "sv_eval_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path sub(const std::string& name) const {
    fs::create_directories(path_ / name);
    return path_ / name;
  }

 private:
  fs::path path_;
};

// A colour texture that differs per pixel and per `seed`, so left and right are distinguishable.
ImageRgb8 texture(int w, int h, int seed) {
  ImageRgb8 image(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      image.at(x, y) = Rgb8{static_cast<uint8_t>((x * 37 + y * 11 + seed * 5) & 255),
                            static_cast<uint8_t>((x * 3 + y * 53 + seed) & 255),
                            static_cast<uint8_t>((x * y + seed * 17) & 255)};
    }
  }
  return image;
}

// Ground truth used by the small datasets: disparity 2 + x / 4 (quarter steps), row 0 unknown.
constexpr int kW = 12, kH = 6;
float truth_at(int x, int y) { return y == 0 ? kUnknown : 2.0f + x * 0.25f; }

ImageF32 small_truth() {
  ImageF32 truth(kW, kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) truth.at(x, y) = truth_at(x, y);
  return truth;
}

// Stored integer ground truth: disparity * scale, 0 = unknown.
ImageU16 stored_truth(float scale) {
  ImageU16 stored(kW, kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      stored.at(x, y) = y == 0 ? 0 : static_cast<uint16_t>(std::lround(truth_at(x, y) * scale));
  return stored;
}

ImageU8 to_u8(const ImageU16& image) {
  ImageU8 out(image.width(), image.height());
  for (size_t i = 0; i < image.size(); ++i) out.data()[i] = static_cast<uint8_t>(image.data()[i]);
  return out;
}

// Mask with 255 in columns [from, to), `other` elsewhere.
ImageU8 column_mask(int from, int to, uint8_t other = 0) {
  ImageU8 mask(kW, kH, other);
  for (int y = 0; y < kH; ++y)
    for (int x = from; x < to; ++x) mask.at(x, y) = 255;
  return mask;
}

// Middlebury 2003 naming (im2.png, im6.png, disp2.png / 4) with the three masks.
void write_middlebury_2003(const fs::path& dir) {
  write_png((dir / "im2.png").string(), texture(kW, kH, 1));
  write_png((dir / "im6.png").string(), texture(kW, kH, 2));
  write_png((dir / "disp2.png").string(), to_u8(stored_truth(4.0f)));
  write_png((dir / "nonocc.png").string(), column_mask(0, 8));
  write_png((dir / "all.png").string(), column_mask(0, 10));
  write_png((dir / "disc.png").string(), column_mask(6, 8, 128));
}

// Tsukuba naming: PPM images, PGM ground truth / 16, no masks.
void write_tsukuba_style(const fs::path& dir) {
  write_ppm((dir / "scene1.row3.col3.ppm").string(), texture(kW, kH, 3));
  write_ppm((dir / "scene1.row3.col4.ppm").string(), texture(kW, kH, 4));
  write_pgm((dir / "truedisp.row3.col3.pgm").string(), to_u8(stored_truth(16.0f)));
}

void write_middlebury_2014(const fs::path& dir, int ndisp) {
  write_png((dir / "im0.png").string(), texture(kW, kH, 5));
  write_png((dir / "im1.png").string(), texture(kW, kH, 6));
  write_pfm((dir / "disp0GT.pfm").string(), small_truth());
  ImageU8 mask = column_mask(0, 5, 128);
  mask.at(0, 1) = 0;
  write_png((dir / "mask0nocc.png").string(), mask);
  std::ofstream calib(dir / "calib.txt");
  calib << "cam0=[100 0 6; 0 100 3; 0 0 1]\ndoffs=0\nbaseline=100\nwidth=" << kW
        << "\nheight=" << kH << "\nndisp=" << ndisp << "\nisint=0\nvmin=2\nvmax=5\n";
}

// KITTI 2015 under training/: frame 000001_10 with occ and noc truth, 000001_11 without truth.
void write_kitti(const fs::path& dir) {
  for (const char* sub : {"image_2", "image_3", "disp_occ_0", "disp_noc_0"}) {
    fs::create_directories(dir / "training" / sub);
  }
  const fs::path t = dir / "training";
  for (const char* frame : {"000001_10.png", "000001_11.png"}) {
    write_png((t / "image_2" / frame).string(), texture(kW, kH, 7));
    write_png((t / "image_3" / frame).string(), texture(kW, kH, 8));
  }
  ImageU16 occ = stored_truth(256.0f);
  write_png((t / "disp_occ_0" / "000001_10.png").string(), occ);
  for (int y = 0; y < kH; ++y) occ.at(kW - 1, y) = 0;  // last column occluded
  write_png((t / "disp_noc_0" / "000001_10.png").string(), occ);
}

void expect_small_truth(const ImageF32& truth) {
  ASSERT_TRUE(truth.same_size(kW, kH));
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      if (y == 0) {
        EXPECT_FALSE(std::isfinite(truth.at(x, y))) << x << "," << y;
      } else {
        EXPECT_FLOAT_EQ(truth.at(x, y), truth_at(x, y)) << x << "," << y;
      }
    }
  }
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- PNG layer ---------------------------------------------------------------------------------

TEST(PngIo, RoundTripsRgbGrayAnd16Bit) {
  TempDir tmp;
  const ImageRgb8 rgb = texture(7, 5, 9);
  write_png((tmp.path() / "rgb.png").string(), rgb);
  EXPECT_EQ(read_image_rgb((tmp.path() / "rgb.png").string()), rgb);
  EXPECT_EQ(read_image_gray((tmp.path() / "rgb.png").string()), to_gray(rgb));

  ImageU16 deep(5, 3);
  for (size_t i = 0; i < deep.size(); ++i) deep.data()[i] = static_cast<uint16_t>(i * 4099 + 1);
  write_png((tmp.path() / "deep.png").string(), deep);
  EXPECT_EQ(read_image_u16((tmp.path() / "deep.png").string()), deep);

  // An 8-bit gray file: the same values through every reader.
  ImageU8 gray(4, 2);
  for (size_t i = 0; i < gray.size(); ++i) gray.data()[i] = static_cast<uint8_t>(i * 31 + 7);
  write_png((tmp.path() / "gray.png").string(), gray);
  EXPECT_EQ(read_image_gray((tmp.path() / "gray.png").string()), gray);
  EXPECT_EQ(read_image_rgb((tmp.path() / "gray.png").string()), to_rgb(gray));
  const ImageU16 widened = read_image_u16((tmp.path() / "gray.png").string());
  EXPECT_EQ(widened.at(3, 1), gray.at(3, 1));

  // PPM written by the core reads back through OpenCV unchanged.
  write_ppm((tmp.path() / "rgb.ppm").string(), rgb);
  EXPECT_EQ(read_image_rgb((tmp.path() / "rgb.ppm").string()), rgb);
}

TEST(PngIo, ErrorsNameTheFile) {
  TempDir tmp;
  const std::string missing = (tmp.path() / "missing.png").string();
  try {
    read_image_rgb(missing);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), missing)) << e.what();
  }
  const std::string junk = (tmp.path() / "junk.png").string();
  std::ofstream(junk) << "not an image";
  EXPECT_THROW(read_image_u16(junk), InputError);
  EXPECT_THROW(write_png((tmp.path() / "no_such_dir" / "x.png").string(), ImageU8(2, 2)),
               RuntimeError);
}

// ---- dataset loader ----------------------------------------------------------------------------

TEST(DatasetLoader, ReadsAMiddlebury2003PairWithMasks) {
  TempDir tmp;
  const fs::path dir = tmp.sub("teddy_like");
  write_middlebury_2003(dir);
  EXPECT_EQ(detect_layout(dir.string()), "middlebury-2001-2003");
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  ASSERT_EQ(samples.size(), 1u);
  const StereoSample& s = samples[0];
  EXPECT_EQ(s.name, "teddy_like");
  EXPECT_EQ(s.left, texture(kW, kH, 1));
  EXPECT_EQ(s.right, texture(kW, kH, 2));
  expect_small_truth(s.ground_truth);
  EXPECT_EQ(s.masks.nonocc, column_mask(0, 8));
  EXPECT_EQ(s.masks.all, column_mask(0, 10));
  EXPECT_EQ(s.masks.disc, column_mask(6, 8, 128));
  // Max truth 2 + 11/4 = 4.75: floor + 1 = 5, rounded up to 16.
  EXPECT_EQ(s.num_disparities, 16);
}

TEST(DatasetLoader, ReadsTsukubaNamingAndRoundsTheRangeUpTo16) {
  TempDir tmp;
  const fs::path dir = tmp.sub("tsukuba_like");
  write_tsukuba_style(dir);
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  ASSERT_EQ(samples.size(), 1u);
  expect_small_truth(samples[0].ground_truth);  // / 16
  EXPECT_TRUE(samples[0].masks.nonocc.empty());
  EXPECT_TRUE(samples[0].masks.disc.empty());
  EXPECT_EQ(samples[0].left, texture(kW, kH, 3));

  // Up to 15.94 px (255 / 16) fits in 16 disparities; exactly 16 px needs 17, so 32.
  write_pgm((dir / "truedisp.row3.col3.pgm").string(), ImageU8(kW, kH, 255));
  EXPECT_EQ(load_dataset(dir.string())[0].num_disparities, 16);
  const fs::path dir2 = tmp.sub("venus_like");
  write_ppm((dir2 / "im2.ppm").string(), texture(kW, kH, 1));
  write_ppm((dir2 / "im6.ppm").string(), texture(kW, kH, 2));
  write_pgm((dir2 / "disp2.pgm").string(), ImageU8(kW, kH, 16 * 8));  // 16 px at / 8
  const StereoSample venus = load_dataset(dir2.string())[0];
  EXPECT_FLOAT_EQ(venus.ground_truth.at(3, 3), 16.0f);
  EXPECT_EQ(venus.num_disparities, 32);
}

TEST(DatasetLoader, ReadsAMiddlebury2014Scene) {
  TempDir tmp;
  const fs::path dir = tmp.sub("Scene");
  write_middlebury_2014(dir, 37);
  EXPECT_EQ(detect_layout(dir.string()), "middlebury-2014");
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  ASSERT_EQ(samples.size(), 1u);
  const StereoSample& s = samples[0];
  EXPECT_EQ(s.name, "Scene");
  expect_small_truth(s.ground_truth);
  EXPECT_EQ(s.num_disparities, 37);  // calib.txt ndisp
  ASSERT_FALSE(s.masks.nonocc.empty());
  EXPECT_EQ(s.masks.nonocc.at(0, 1), 0);
  EXPECT_EQ(s.masks.nonocc.at(4, 1), 255);
  EXPECT_EQ(s.masks.nonocc.at(5, 1), 128);
  EXPECT_TRUE(s.masks.all.empty());
  EXPECT_TRUE(s.masks.disc.empty());
}

// A ground truth of 2^31 px or more (a damaged or hostile file) used to overflow the int of
// the suggested range, giving "number of disparities ... got -2147483632".
TEST(DatasetLoader, AHugeGroundTruthSuggestsTheLargestRange) {
  TempDir tmp;
  const fs::path dir = tmp.sub("HugeTruth");
  write_middlebury_2014(dir, 37);
  fs::remove(dir / "calib.txt");  // the range then comes from the ground truth
  for (const float huge : {3e9f, 2147483648.0f, 3.4e38f, 300.0f}) {
    ImageF32 truth = small_truth();
    truth.at(2, 2) = huge;
    write_pfm((dir / "disp0GT.pfm").string(), truth);
    EXPECT_EQ(load_dataset(dir.string())[0].num_disparities, 256) << huge;
  }
}

// calib.txt was read only when it was a regular file: a FIFO or a device there was skipped in
// silence (and a FIFO could block); now anything by that name but a regular file is refused.
TEST(DatasetLoader, ACalibrationThatIsNoRegularFileIsRefused) {
  TempDir tmp;
  const fs::path dir = tmp.sub("FifoCalib");
  write_middlebury_2014(dir, 37);
  fs::remove(dir / "calib.txt");
  test::FifoGuard fifo((dir / "calib.txt").string());
  std::string message = "(loaded)";
  EXPECT_TRUE(fifo.returns_within(5.0, [&] {
    try {
      load_dataset(dir.string());
    } catch (const InputError& e) {
      message = e.what();
    }
  })) << "load_dataset blocked on a FIFO";
  EXPECT_TRUE(contains(message, "calib.txt': a FIFO (named pipe), not a regular file")) << message;
}

TEST(DatasetLoader, ReadsKittiFramesThatHaveTruth) {
  TempDir tmp;
  const fs::path dir = tmp.sub("kitti");
  write_kitti(dir);
  EXPECT_EQ(detect_layout(dir.string()), "kitti");
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  ASSERT_EQ(samples.size(), 1u);  // 000001_11 has no ground truth
  const StereoSample& s = samples[0];
  EXPECT_EQ(s.name, "000001_10");
  expect_small_truth(s.ground_truth);  // / 256
  EXPECT_EQ(s.masks.nonocc.at(kW - 2, 3), 255);
  EXPECT_EQ(s.masks.nonocc.at(kW - 1, 3), 0);  // occluded: only in disp_occ_0
  EXPECT_EQ(s.masks.nonocc.at(2, 0), 0);       // unknown in both
  EXPECT_EQ(s.num_disparities, 192);
  // The split folder itself works too.
  EXPECT_EQ(load_dataset((dir / "training").string()).size(), 1u);
}

TEST(DatasetLoader, ReadsACollectionSortedAndSkipsOtherFolders) {
  TempDir tmp;
  write_middlebury_2003(tmp.sub("b_pair"));
  write_middlebury_2014(tmp.sub("a_scene"), 20);
  write_kitti(tmp.sub("c_kitti"));
  tmp.sub("notes");
  std::ofstream(tmp.path() / "README.md") << "not a dataset";
  EXPECT_EQ(detect_layout(tmp.path().string()), "collection");
  const std::vector<StereoSample> samples = load_dataset(tmp.path().string());
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].name, "a_scene");
  EXPECT_EQ(samples[1].name, "b_pair");
  EXPECT_EQ(samples[2].name, "c_kitti/000001_10");
}

TEST(DatasetLoader, UnknownLayoutsAndMissingFilesAreInputErrors) {
  TempDir tmp;
  const fs::path empty = tmp.sub("empty");
  EXPECT_EQ(detect_layout(empty.string()), "unknown");
  try {
    load_dataset(empty.string());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "looked for")) << e.what();
    EXPECT_TRUE(contains(e.what(), "disp0GT.pfm")) << e.what();
    EXPECT_TRUE(contains(e.what(), "image_2")) << e.what();
  }
  EXPECT_EQ(detect_layout((tmp.path() / "nowhere").string()), "not-a-folder");
  EXPECT_THROW(load_dataset((tmp.path() / "nowhere").string()), InputError);

  const fs::path no_truth = tmp.sub("no_truth");
  write_middlebury_2003(no_truth);
  fs::remove(no_truth / "disp2.png");
  try {
    load_dataset(no_truth.string());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "disp2.png")) << e.what();
  }

  const fs::path mismatched = tmp.sub("mismatched");
  write_middlebury_2003(mismatched);
  write_png((mismatched / "im6.png").string(), texture(kW + 1, kH, 2));
  EXPECT_THROW(load_dataset(mismatched.string()), InputError);
}

// ---- the eval command --------------------------------------------------------------------------

// A small JSON syntax check (objects, arrays, strings, numbers, true/false/null), so the test
// notices output that a JSON parser would reject.
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& text) : s_(text) {}
  bool valid() {
    pos_ = 0;
    if (!value()) return false;
    skip();
    return pos_ == s_.size();
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  bool string() {
    if (!eat('"')) return false;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (static_cast<unsigned char>(s_[pos_]) < 0x20) return false;
      pos_ += s_[pos_] == '\\' ? 2 : 1;
    }
    return pos_++ < s_.size();
  }
  bool number() {
    const size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                std::string(".eE+-").find(s_[pos_]) != std::string::npos)) {
      ++pos_;
    }
    return pos_ > start && std::isdigit(static_cast<unsigned char>(s_[pos_ - 1]));
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool value() {
    skip();
    if (pos_ >= s_.size()) return false;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      if (eat('}')) return true;
      do {
        if (!string() || !eat(':') || !value()) return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++pos_;
      if (eat(']')) return true;
      do {
        if (!value()) return false;
      } while (eat(','));
      return eat(']');
    }
    if (c == '"') return string();
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    return number();
  }
  const std::string& s_;
  size_t pos_ = 0;
};

struct EvalRun {
  int code = -1;
  std::string out, err;
};

EvalRun run_eval(const EvalOptions& options, const EvalComputeFn& compute) {
  std::ostringstream out, err;
  EvalRun run;
  run.code = run_eval_command(options, compute, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// A compute function that ignores the images and returns the truth moved by `offset`, with
// every pixel of the left half invalid when `invalid_left_half`.
EvalComputeFn truth_based(float offset, bool invalid_left_half = false) {
  return [=](const ImageRgb8& left, const ImageRgb8&, const StereoParams&) {
    EXPECT_TRUE(left.same_size(kW, kH));
    ImageF32 d = small_truth();
    for (int y = 0; y < kH; ++y) {
      for (int x = 0; x < kW; ++x) {
        d.at(x, y) = invalid_left_half && x < kW / 2 ? kInvalidDisparity : truth_at(x, 1) + offset;
      }
    }
    return EvalComputeResult{d, 1.5};
  };
}

TEST(EvalCommand, ExactTruthScoresZeroAndShiftedTruthScoresHundred) {
  TempDir tmp;
  const fs::path dir = tmp.sub("pair");
  write_middlebury_2003(dir);
  EvalOptions options;
  options.dataset_dir = dir.string();

  const EvalRun exact = run_eval(options, truth_based(0.0f));
  ASSERT_EQ(exact.code, 0) << exact.err;
  EXPECT_TRUE(contains(exact.out, "average bad-1 over 3 columns (1 pair x regions): 0.00 %"))
      << exact.out;

  // +2 px everywhere: bad-0.5 and bad-1 are 100 %, bad-2 and bad-4 are 0 (not > 2).
  options.json = true;
  const EvalRun shifted = run_eval(options, truth_based(2.0f));
  ASSERT_EQ(shifted.code, 0) << shifted.err;
  EXPECT_TRUE(JsonChecker(shifted.out).valid()) << shifted.out;
  // nonocc: columns 0..7 of rows 1..5 = 40 pixels; all: 50; disc: columns 6, 7 = 10.
  EXPECT_TRUE(contains(shifted.out,
                       "\"nonocc\": {\"pixels\": 40, \"bad_1\": 100, \"bad_0_5\": 100, "
                       "\"bad_2\": 0, \"bad_4\": 0, \"avg_abs_error\": 2, \"bad_1_kept\": 100}"))
      << shifted.out;
  EXPECT_TRUE(contains(shifted.out, "\"all\": {\"pixels\": 50, \"bad_1\": 100"));
  EXPECT_TRUE(contains(shifted.out, "\"disc\": {\"pixels\": 10, \"bad_1\": 100"));
  EXPECT_TRUE(contains(shifted.out, "\"average_bad_1\": 100,"));
  EXPECT_TRUE(contains(shifted.out, "\"bad_1_columns\": 3"));
  EXPECT_TRUE(contains(shifted.out, "\"num_disparities\": 16"));
  EXPECT_TRUE(contains(shifted.out, "\"time_ms\": 1.5"));
}

TEST(EvalCommand, HalfInvalidMapHasHalfDensity) {
  TempDir tmp;
  const fs::path dir = tmp.sub("kitti");
  write_kitti(dir);
  EvalOptions options;
  options.dataset_dir = dir.string();
  options.json = true;
  const EvalRun run = run_eval(options, truth_based(0.0f, true));
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(JsonChecker(run.out).valid()) << run.out;
  EXPECT_TRUE(contains(run.out, "\"density\": 50,")) << run.out;
  // KITTI has no disc mask: disc is null and only 2 bad-1 columns are averaged.
  EXPECT_TRUE(contains(run.out, "\"disc\": null"));
  EXPECT_TRUE(contains(run.out, "\"bad_1_columns\": 2"));
  // all: 60 known pixels, left half invalid -> 50 %; nonocc drops column 11 -> 30 of 55.
  EXPECT_TRUE(contains(run.out, "\"all\": {\"pixels\": 60, \"bad_1\": 50,")) << run.out;
  EXPECT_TRUE(contains(run.out, "\"nonocc\": {\"pixels\": 55, \"bad_1\": 54.54545455"))
      << run.out;
}

// KITTI's disp_occ_0 without disp_noc_0 has no occlusion information: nonocc once showed the
// "all" figures under its own name. It is absent now, and the table says why.
TEST(EvalCommand, DataWithoutAnOcclusionMaskReportsNoNonocc) {
  TempDir tmp;
  const fs::path dir = tmp.sub("kitti");
  write_kitti(dir);
  fs::remove_all(dir / "training" / "disp_noc_0");
  EvalOptions options;
  options.dataset_dir = dir.string();
  const EvalRun table = run_eval(options, truth_based(2.0f));
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "no occlusion mask for 000001_10: nonocc is not reported"))
      << table.out;
  EXPECT_TRUE(contains(table.out, "average bad-1 over 1 column (1 pair x regions): 100.00 %"))
      << table.out;
  std::istringstream lines(table.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("000001_10", 0) != 0) continue;
    // ndisp, then bad-1 nonocc "-", all 100.00, disc "-".
    std::istringstream cells(line);
    std::string name, ndisp, nonocc, all, disc;
    cells >> name >> ndisp >> nonocc >> all >> disc;
    EXPECT_EQ(nonocc, "-") << line;
    EXPECT_EQ(all, "100.00") << line;
    EXPECT_EQ(disc, "-") << line;
  }

  options.json = true;
  const EvalRun json = run_eval(options, truth_based(2.0f));
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_TRUE(JsonChecker(json.out).valid()) << json.out;
  EXPECT_TRUE(contains(json.out, "\"nonocc\": null")) << json.out;
  EXPECT_TRUE(contains(json.out, "\"bad_1_columns\": 1")) << json.out;
}

TEST(EvalCommand, UsesTheDatasetRangeUnlessDisparitiesWereGiven) {
  TempDir tmp;
  write_middlebury_2014(tmp.sub("a"), 40);
  write_middlebury_2003(tmp.sub("b"));
  EvalOptions options;
  options.dataset_dir = tmp.path().string();
  options.params.num_disparities = 96;
  std::vector<int> seen;
  const auto record = [&](const ImageRgb8& l, const ImageRgb8& r, const StereoParams& p) {
    seen.push_back(p.num_disparities);
    return truth_based(1.0f)(l, r, p);
  };
  EvalRun run = run_eval(options, record);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(seen, (std::vector<int>{40, 16}));
  // Offset 1 is not > 1: bad-1 0 %, bad-0.5 100 %, over 2 + 3 columns.
  EXPECT_TRUE(contains(run.out, "average bad-1 over 5 columns (2 pairs x regions): 0.00 %"))
      << run.out;

  seen.clear();
  options.params_disparities_given = true;
  run = run_eval(options, record);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(seen, (std::vector<int>{96, 96}));
}

// An engine whose frames need more memory than any machine has (4 EiB), and a slow one: eval
// checks each pair's size before it computes it (issue 17).
class CostedEngine : public test::FakeEngine {
 public:
  explicit CostedEngine(FrameCost cost) : cost_(cost) {}
  std::string name() const override { return "costed"; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams&) override {
    ++computed;
    DisparityResult result;
    result.disparity = ImageF32(left.width(), left.height(), 1.0f);
    return result;
  }
  FrameCost frame_cost(int, int, const StereoParams&) const override { return cost_; }
  int computed = 0;

 private:
  FrameCost cost_;
};

TEST(EvalCommand, APairThatCannotFitIsRefusedBeforeItIsComputed) {
  TempDir tmp;
  write_middlebury_2003(tmp.sub("pair"));
  EvalOptions options;
  options.dataset_dir = (tmp.path() / "pair").string();
  FrameCost huge;
  huge.host_bytes = uint64_t{1} << 62;
  CostedEngine hungry(huge);
  std::ostringstream notices;
  EvalRun run = run_eval(options, eval_compute_with(hungry, notices));
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(hungry.computed, 0);
  EXPECT_TRUE(contains(run.err, "needs 4.0 EiB of host memory on the costed engine")) << run.err;

  FrameCost slow;
  slow.seconds = 90.0;
  CostedEngine patient(slow);
  run = run_eval(options, eval_compute_with(patient, notices));
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(patient.computed, 1);
  EXPECT_TRUE(contains(notices.str(), "note: a 12x6 frame (census-sgm, 16 disparities) takes about 1.5 min"))
      << notices.str();
}

TEST(EvalCommand, FailuresReturnOneWithTheReason) {
  TempDir tmp;
  EvalOptions options;
  options.dataset_dir = tmp.sub("empty").string();
  const EvalRun unknown = run_eval(options, truth_based(0.0f));
  EXPECT_EQ(unknown.code, 1);
  EXPECT_TRUE(contains(unknown.err, "looked for")) << unknown.err;

  write_middlebury_2003(tmp.sub("pair"));
  options.dataset_dir = (tmp.path() / "pair").string();
  const EvalRun failing = run_eval(
      options, [](const ImageRgb8&, const ImageRgb8&, const StereoParams&) -> EvalComputeResult {
        throw RuntimeError("engine exploded");
      });
  EXPECT_EQ(failing.code, 1);
  EXPECT_TRUE(contains(failing.err, "engine exploded")) << failing.err;
  EXPECT_TRUE(contains(failing.err, "pair")) << failing.err;
}

// --out: the pictures decode at their sizes, the error map colours exactly the bad pixels (an
// invalid one in the non-occluded area, an error in an occluded column), the page has the table.
TEST(EvalCommand, OutWritesPicturesAndASummaryPage) {
  TempDir tmp;
  const fs::path dir = tmp.sub("pair");
  write_middlebury_2003(dir);  // nonocc columns 0..7, all 0..9, row 0 unknown
  EvalOptions options;
  options.dataset_dir = dir.string();
  options.out_dir = (tmp.path() / "report" / "run1").string();
  const EvalComputeFn compute = [](const ImageRgb8&, const ImageRgb8&, const StereoParams&) {
    ImageF32 d = small_truth();
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) d.at(x, y) = truth_at(x, 1);
    d.at(3, 2) = kInvalidDisparity;       // bad, not occluded
    d.at(8, 4) = truth_at(8, 4) + 3.0f;   // bad, occluded (in all, not in nonocc)
    d.at(5, 1) = truth_at(5, 1) + 0.75f;  // good
    d.at(11, 3) = truth_at(11, 3) + 5.0f; // outside "all": not evaluated
    return EvalComputeResult{d, 1.0};
  };
  const EvalRun run = run_eval(options, compute);
  ASSERT_EQ(run.code, 0) << run.err;

  const fs::path report = tmp.path() / "report" / "run1";
  const ImageRgb8 pictures = read_image_rgb((report / "pair-disparity.png").string());
  EXPECT_TRUE(pictures.same_size(2 * kW, kH));
  const ImageRgb8 errors = read_image_rgb((report / "pair-errors.png").string());
  ASSERT_TRUE(errors.same_size(kW, kH));
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      const Rgb8 p = errors.at(x, y);
      const bool coloured = !(p.r == p.g && p.g == p.b);
      const bool bad = (x == 3 && y == 2) || (x == 8 && y == 4);
      EXPECT_EQ(coloured, bad) << x << "," << y;
    }
  }
  EXPECT_NE(errors.at(3, 2), errors.at(8, 4));  // occluded ones apart
  // The estimate's invalid pixel is magenta beside the truth's colour at that place.
  EXPECT_EQ(pictures.at(3, 2), (Rgb8{255, 0, 255}));
  EXPECT_NE(pictures.at(kW + 3, 2), (Rgb8{255, 0, 255}));
  EXPECT_EQ(pictures.at(kW + 3, 0), (Rgb8{255, 0, 255}));  // row 0: truth unknown

  std::ifstream page_file(report / "summary.md");
  const std::string page((std::istreambuf_iterator<char>(page_file)), std::istreambuf_iterator<char>());
  // The printed table, row for row (the header line is the page's title).
  const std::string table = run.out.substr(run.out.find("\n\n") + 2);
  EXPECT_TRUE(contains(page, table)) << page;
  EXPECT_TRUE(contains(page, "![pair: disparity | ground truth](pair-disparity.png)")) << page;
  EXPECT_TRUE(contains(page, "![pair: errors](pair-errors.png)")) << page;
  // 1 bad of 40 nonocc pixels = 2.5 %; 2 of 50 = 4 %.
  EXPECT_TRUE(contains(page, "bad-1 nonocc 2.50 % all 4.00 %")) << page;
}

TEST(EvalCommand, OutThatCannotBeAFolderFailsBeforeComputing) {
  TempDir tmp;
  const fs::path dir = tmp.sub("pair");
  write_middlebury_2003(dir);
  std::ofstream(tmp.path() / "a_file") << "x";
  EvalOptions options;
  options.dataset_dir = dir.string();
  options.out_dir = (tmp.path() / "a_file" / "report").string();
  bool computed = false;
  const EvalRun run = run_eval(options, [&](const ImageRgb8& l, const ImageRgb8& r,
                                            const StereoParams& p) {
    computed = true;
    return truth_based(0.0f)(l, r, p);
  });
  EXPECT_EQ(run.code, 1);
  EXPECT_FALSE(computed);
  EXPECT_TRUE(contains(run.err, "--out")) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(EvalPictures, FileStemsAreSafeNames) {
  EXPECT_EQ(EvalPictures::file_stem("training/000001_10"), "training_000001_10");
  EXPECT_EQ(EvalPictures::file_stem(".."), "pair");
  EXPECT_EQ(EvalPictures::file_stem("a b:c"), "a_b_c");
}

// ---- the shared data, when present -------------------------------------------------------------

fs::path shared_data_dir() {
  if (const char* v = std::getenv("STEREO_DATA_DIR")) return v;
  return STEREO_DATA_DIR_DEFAULT;  // ../shared/data beside the checkout, compiled in by CMake
}

struct KnownRange {
  float min, max;
};

KnownRange truth_range(const ImageF32& truth, double* known_fraction) {
  KnownRange r{kUnknown, -kUnknown};
  size_t known = 0;
  for (float d : truth.pixels()) {
    if (!std::isfinite(d)) continue;
    ++known;
    r.min = std::min(r.min, d);
    r.max = std::max(r.max, d);
  }
  *known_fraction = static_cast<double>(known) / truth.size();
  return r;
}

TEST(SharedData, Middlebury2003LoadsFourPairs) {
  const fs::path dir = shared_data_dir() / "middlebury2003";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no shared data at " << dir;
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  ASSERT_EQ(samples.size(), 4u);
  struct Expected {
    const char* name;
    int w, h, ndisp;
    float min, max;
    double known;
  };
  // Sizes and ranges as SOURCE.txt measured them; ndisp by the GT rule.
  const Expected expected[] = {{"cones", 450, 375, 64, 5.5f, 55.0f, 0.968},
                               {"teddy", 450, 375, 64, 12.5f, 52.75f, 0.980},
                               {"tsukuba", 384, 288, 16, 5.0f, 14.0f, 0.793},
                               {"venus", 434, 383, 32, 3.0f, 19.75f, 1.0}};
  for (size_t i = 0; i < 4; ++i) {
    const StereoSample& s = samples[i];
    const Expected& e = expected[i];
    SCOPED_TRACE(e.name);
    EXPECT_EQ(s.name, e.name);
    EXPECT_TRUE(s.left.same_size(e.w, e.h));
    EXPECT_TRUE(s.right.same_size(e.w, e.h));
    EXPECT_NE(s.left, s.right);
    double known = 0.0;
    const KnownRange r = truth_range(s.ground_truth, &known);
    EXPECT_FLOAT_EQ(r.min, e.min);
    EXPECT_FLOAT_EQ(r.max, e.max);
    EXPECT_NEAR(known, e.known, 0.002);
    EXPECT_EQ(s.num_disparities, e.ndisp);
    // Masks (several are palette PNGs) read as their 0 / 128 / 255 values.
    for (const ImageU8* mask : {&s.masks.nonocc, &s.masks.all, &s.masks.disc}) {
      ASSERT_TRUE(mask->same_size(e.w, e.h));
      size_t evaluated = 0;
      for (uint8_t v : mask->pixels()) {
        EXPECT_TRUE(v == 0 || v == 128 || v == 255) << int(v);
        evaluated += v == 255;
      }
      EXPECT_GT(evaluated, 0u);
    }
  }
  // Tsukuba's 18 px border is unknown.
  EXPECT_FALSE(std::isfinite(samples[2].ground_truth.at(17, 100)));
  EXPECT_TRUE(std::isfinite(samples[2].ground_truth.at(18, 100)));
}

TEST(SharedData, EvalOfTheTruthOnMiddlebury2003IsPerfect) {
  const fs::path dir = shared_data_dir() / "middlebury2003";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no shared data at " << dir;
  // The compute function returns each pair's own truth; pairs are computed in load order.
  const std::vector<StereoSample> samples = load_dataset(dir.string());
  EvalOptions options;
  options.dataset_dir = dir.string();
  size_t next = 0;
  const EvalRun run = run_eval(options, [&](const ImageRgb8& left, const ImageRgb8&, const StereoParams&) {
    const StereoSample& s = samples.at(next++);
    EXPECT_EQ(left, s.left) << s.name;
    return EvalComputeResult{s.ground_truth, 0.0};
  });
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "average bad-1 over 12 columns (4 pairs x regions): 0.00 %"))
      << run.out;
}

TEST(SharedData, Middlebury2014AndKittiLoad) {
  const fs::path data = shared_data_dir();
  if (!fs::is_directory(data / "middlebury2014") || !fs::is_directory(data / "kitti2015")) {
    GTEST_SKIP() << "no Middlebury 2014 / KITTI data under " << data;
  }
  const std::vector<StereoSample> scenes = load_dataset((data / "middlebury2014").string());
  ASSERT_GE(scenes.size(), 1u);
  for (const StereoSample& s : scenes) {
    if (s.name != "ArtL") continue;
    EXPECT_TRUE(s.left.same_size(347, 277));
    EXPECT_EQ(s.num_disparities, 64);
    double known = 0.0;
    const KnownRange r = truth_range(s.ground_truth, &known);
    EXPECT_NEAR(r.min, 19.25, 0.01);
    EXPECT_NEAR(r.max, 55.5, 0.01);
    EXPECT_NEAR(known, 0.998, 0.001);
  }
  const std::vector<StereoSample> kitti = load_dataset((data / "kitti2015").string());
  ASSERT_EQ(kitti.size(), 1u);
  EXPECT_EQ(kitti[0].name, "000046_10");
  EXPECT_TRUE(kitti[0].left.same_size(1242, 375));
  double known = 0.0;
  const KnownRange r = truth_range(kitti[0].ground_truth, &known);
  EXPECT_NEAR(r.min, 4.871, 0.001);
  EXPECT_NEAR(r.max, 65.738, 0.001);
  EXPECT_NEAR(known, 0.118, 0.001);
}

}  // namespace
}  // namespace sv
