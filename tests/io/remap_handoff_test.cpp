// Where rectification runs (issue 5): a RectifiedSource rectifies on its own thread until the
// frame loop says its engine remaps, then passes pairs through raw for the engine (8-bit ones,
// and since issue 18 16-bit and float ones with their colour views);
// match_rectifying_pair and the ProcessingThread hand the maps to the engine or rectify on the
// host, and what reaches the display is the rectified pair either way. Runs without a GPU: a
// fake engine stands for the CUDA engine's rectification (can_rectify) (its GPU test is
// gpu_engine_rectification); the CPU engine is the real one.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <thread>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "src/app/pair_matching.h"
#include "src/app/processing_thread.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/remap.h"
#include "src/core/remap_handoff.h"
#include "src/core/synthetic_scene.h"
#include "src/io/rectified_source.h"
#include "src/io/stereo_rectifier.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using namespace std::chrono_literals;

constexpr int kWidth = 96, kHeight = 64;

std::string write_calibration() {
  const cv::Matx33d K1(90, 0, 47.5, 0, 91, 31.25, 0, 0, 1), K2(92, 0, 49, 0, 90, 30, 0, 0, 1);
  const cv::Matx<double, 1, 5> D1(-0.12, 0.03, 0.001, -0.0008, 0.0);
  const cv::Matx<double, 1, 5> D2(-0.10, 0.02, -0.0005, 0.001, 0.0);
  cv::Matx33d R;
  cv::Rodrigues(cv::Vec3d(0.02, -0.03, 0.015), R);
  const std::string path = test::fresh_dir("remap_handoff") + "/rig.yaml";
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  fs << "image_width" << kWidth << "image_height" << kHeight << "K1" << cv::Mat(K1) << "D1"
     << cv::Mat(D1) << "K2" << cv::Mat(K2) << "D2" << cv::Mat(D2) << "R" << cv::Mat(R) << "T"
     << cv::Mat(cv::Vec3d(-0.1, 0.003, 0.002));
  return path;
}

// Raw pairs: frames of the synthetic scene, with 16-bit or float planes beside the views.
enum class Depth { Eight, Sixteen, Float };

class RawSceneSource : public FrameSource {
 public:
  explicit RawSceneSource(Depth depth = Depth::Eight) : depth_(depth) {
    SyntheticSceneConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.max_disparity = 24;
    scene_ = std::make_unique<SyntheticScene>(config);
  }
  std::string describe() const override { return "raw scene"; }
  bool is_live() const override { return false; }
  std::optional<StereoPair> next() override { return pair(index_++); }

  StereoPair pair(int index) const {
    const SyntheticFrame frame = scene_->render(index);
    StereoPair pair;
    pair.index = index;
    pair.left = frame.left;
    pair.right = frame.right;
    // The deep planes are the scene's gray scaled up, plus a value the 8 bits cannot hold
    // (16-bit) or a missing pixel (float), so a remap that dropped their depth would show.
    const ImageU8 gray_left = to_gray(frame.left), gray_right = to_gray(frame.right);
    if (depth_ == Depth::Sixteen) {
      pair.left16 = ImageU16(kWidth, kHeight);
      pair.right16 = ImageU16(kWidth, kHeight);
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
          pair.left16.at(x, y) = static_cast<uint16_t>(gray_left.at(x, y) * 257 + index);
          pair.right16.at(x, y) = static_cast<uint16_t>(gray_right.at(x, y) * 257 + index);
        }
      }
      pair.left16.at(kWidth / 2, kHeight / 2) = 60001;
    }
    if (depth_ == Depth::Float) {
      pair.leftf = ImageF32(kWidth, kHeight);
      pair.rightf = ImageF32(kWidth, kHeight);
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
          pair.leftf.at(x, y) = gray_left.at(x, y) * 0.01f + 0.001f * index;
          pair.rightf.at(x, y) = gray_right.at(x, y) * 0.01f + 0.001f * index;
        }
      }
      pair.leftf.at(kWidth / 3, kHeight / 3) = std::numeric_limits<float>::quiet_NaN();
    }
    return pair;
  }

 private:
  Depth depth_;
  int index_ = 0;
  std::unique_ptr<SyntheticScene> scene_;
};

// The CUDA engine's contract without a GPU: takes raw pairs with their maps (the CPU engine
// rectifies a request's raw pair on the host, the remap the GPU reproduces bit for bit) and
// returns the rectified views.
class RemappingEngine : public StereoEngine {
 public:
  std::string name() const override { return "remapping"; }
  bool can_rectify() const override { return true; }
  bool supports_high_bit_depth(const StereoParams& params) const override {
    return cpu_.supports_high_bit_depth(params);
  }
  bool supports_float_input(const StereoParams& params) const override {
    return cpu_.supports_float_input(params);
  }
  void submit(const FrameRequest& request) override {
    if (request.rectification) ++raw_pairs;
    if (request.views.left != nullptr) ++raw_views;
    cpu_.submit(request);
  }
  void collect(DisparityResult& result) override { cpu_.collect(result); }
  using StereoEngine::collect;
  int frames_in_flight() const override { return cpu_.frames_in_flight(); }
  int raw_pairs = 0;
  int raw_views = 0;  // raw deep pairs that came with their colour views

 private:
  CpuEngine cpu_;
};

StereoParams small_params() {
  StereoParams params;
  params.num_disparities = 24;
  return params;
}

class RemapHandoffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = write_calibration();
    rectifier_ = std::make_unique<StereoRectifier>(load_stereo_calibration(path_), kWidth, kHeight);
  }
  std::unique_ptr<RectifiedSource> source(Depth depth = Depth::Eight) {
    return std::make_unique<RectifiedSource>(std::make_unique<RawSceneSource>(depth),
                                             load_stereo_calibration(path_));
  }
  // The pair the CPU path shows: rectified by the rectifier (cv::remap).
  StereoPair rectified(int index, Depth depth = Depth::Eight) const {
    StereoPair pair = RawSceneSource(depth).pair(index);
    rectifier_->rectify(pair.left, pair.right);
    if (depth == Depth::Sixteen) rectifier_->rectify(pair.left16, pair.right16);
    if (depth == Depth::Float) rectifier_->rectify(pair.leftf, pair.rightf);
    return pair;
  }
  // The disparity of the rectified pair at its full depth.
  static ImageI16 disparity_of(const StereoPair& pair) {
    CpuEngine cpu;
    if (!pair.left16.empty()) return cpu.compute(pair.left16, pair.right16, small_params()).disparity_fixed;
    if (!pair.leftf.empty()) return cpu.compute(pair.leftf, pair.rightf, small_params()).disparity_fixed;
    return cpu.compute(pair.left, pair.right, small_params()).disparity_fixed;
  }
  std::string path_;
  std::unique_ptr<StereoRectifier> rectifier_;
};

TEST_F(RemapHandoffTest, TheSourceRectifiesUntilTheEngineTakesTheRemap) {
  auto src = source();
  std::optional<StereoPair> first = src->next();
  ASSERT_TRUE(first && first->remap);
  EXPECT_FALSE(first->needs_remap);
  EXPECT_EQ(first->left, rectified(0).left);
  EXPECT_EQ(first->right, rectified(0).right);
  EXPECT_EQ(first->remap->maps()->left_x, rectifier_->maps().left_x);

  first->remap->set_engine_remaps(true);
  const std::optional<StereoPair> raw = src->next();
  ASSERT_TRUE(raw && raw->needs_remap);
  EXPECT_EQ(raw->left, RawSceneSource().pair(1).left);  // passed through untouched
  EXPECT_EQ(raw->right, RawSceneSource().pair(1).right);

  raw->remap->set_engine_remaps(false);
  const std::optional<StereoPair> again = src->next();
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->needs_remap);
  EXPECT_EQ(again->left, rectified(2).left);
}

// Float planes hold NaN for missing pixels: equal images, NaN where NaN, bits elsewhere.
bool same_floats(const ImageF32& a, const ImageF32& b) {
  if (!a.same_size(b)) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (std::isnan(x) != std::isnan(y) || (!std::isnan(x) && std::memcmp(&x, &y, sizeof x) != 0)) {
      return false;
    }
  }
  return true;
}

TEST_F(RemapHandoffTest, DeepPairsGoRawWithTheirViewsToAnEngineThatRemaps) {
  for (const Depth depth : {Depth::Sixteen, Depth::Float}) {
    SCOPED_TRACE(depth == Depth::Sixteen ? "16-bit" : "float");
    auto src = source(depth);
    RemappingEngine engine;
    std::optional<StereoPair> first = src->next();
    ASSERT_TRUE(first && first->remap);
    EXPECT_FALSE(first->needs_remap);  // rectified at the source until the engine takes it
    match_rectifying_pair(engine, *first, small_params());
    EXPECT_TRUE(first->remap->engine_remaps());

    std::optional<StereoPair> raw = src->next();
    ASSERT_TRUE(raw && raw->needs_remap);
    const StereoPair untouched = RawSceneSource(depth).pair(1);
    EXPECT_EQ(raw->left, untouched.left);  // no remap at the source: views and planes raw
    EXPECT_EQ(raw->left16, untouched.left16);
    EXPECT_TRUE(same_floats(raw->leftf, untouched.leftf));

    const DisparityResult result = match_rectifying_pair(engine, *raw, small_params());
    EXPECT_EQ(engine.raw_pairs, 1);
    EXPECT_EQ(engine.raw_views, 1);  // the views came with the deep pair, not rectified here
    const StereoPair expected = rectified(1, depth);
    EXPECT_FALSE(raw->needs_remap);
    EXPECT_EQ(raw->left, expected.left);  // the engine's rectified views and planes
    EXPECT_EQ(raw->right, expected.right);
    EXPECT_EQ(raw->left16, expected.left16);
    EXPECT_EQ(raw->right16, expected.right16);
    EXPECT_TRUE(same_floats(raw->leftf, expected.leftf));
    EXPECT_TRUE(same_floats(raw->rightf, expected.rightf));
    EXPECT_EQ(result.disparity_fixed, disparity_of(expected));  // matched at full depth
  }
}

TEST_F(RemapHandoffTest, PlanesNotMatchedAreRectifiedOnTheHostAfterTheFrame) {
  // Block matching has no census, so a 16-bit pair is matched on its 8-bit views: the engine
  // rectifies the views it matched and the 16-bit planes are rectified here for whoever keeps them.
  auto src = source(Depth::Sixteen);
  RemappingEngine engine;
  StereoParams params = small_params();
  params.algorithm = "bm-sad";
  std::optional<StereoPair> first = src->next();
  match_rectifying_pair(engine, *first, params);
  std::optional<StereoPair> raw = src->next();
  ASSERT_TRUE(raw && raw->needs_remap);
  match_rectifying_pair(engine, *raw, params);
  EXPECT_EQ(engine.raw_views, 0);
  const StereoPair expected = rectified(1, Depth::Sixteen);
  EXPECT_EQ(raw->left, expected.left);
  EXPECT_EQ(raw->left16, expected.left16);
  EXPECT_EQ(raw->right16, expected.right16);
}

TEST_F(RemapHandoffTest, ADeepPlaneOfAnotherSizeIsRefusedAtTheSourceEvenWhenTheEngineRemaps) {
  // From its second pair on, the right 16-bit plane is 2 columns short.
  class ShortRightPlane : public RawSceneSource {
   public:
    ShortRightPlane() : RawSceneSource(Depth::Sixteen) {}
    std::optional<StereoPair> next() override {
      StereoPair p = pair(index_);
      if (index_++ > 0) p.right16 = ImageU16(kWidth - 2, kHeight);
      return p;
    }

   private:
    int index_ = 0;
  };
  RectifiedSource src(std::make_unique<ShortRightPlane>(), load_stereo_calibration(path_));
  std::optional<StereoPair> first = src.next();
  ASSERT_TRUE(first && first->remap);
  first->remap->set_engine_remaps(true);  // raw pairs pass through from now on...
  try {
    src.next();  // ...but not one whose planes the maps do not fit
    ADD_FAILURE() << "a 16-bit plane of another size passed through";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("94x64"), std::string::npos) << e.what();
  }
}

TEST_F(RemapHandoffTest, TheCpuEngineRectifiesARawPairOnTheHostAndTheSourceResumes) {
  auto src = source();
  std::optional<StereoPair> first = src->next();
  first->remap->set_engine_remaps(true);  // as if a CUDA engine had taken it, then gone
  std::optional<StereoPair> raw = src->next();
  ASSERT_TRUE(raw && raw->needs_remap);
  CpuEngine cpu;
  const DisparityResult result = match_rectifying_pair(cpu, *raw, small_params());
  EXPECT_FALSE(raw->needs_remap);
  EXPECT_FALSE(raw->remap->engine_remaps());
  const StereoPair expected = rectified(1);
  EXPECT_EQ(raw->left, expected.left);  // bit for bit as cv::remap on the capture thread
  EXPECT_EQ(raw->right, expected.right);
  EXPECT_EQ(result.disparity_fixed,
            cpu.compute(expected.left, expected.right, small_params()).disparity_fixed);
  EXPECT_FALSE(src->next()->needs_remap);
}

TEST_F(RemapHandoffTest, AnEngineThatRemapsGetsRawPairsAndReturnsTheRectifiedViews) {
  auto src = source();
  RemappingEngine engine;
  std::optional<StereoPair> first = src->next();
  match_rectifying_pair(engine, *first, small_params());
  EXPECT_TRUE(first->remap->engine_remaps());
  EXPECT_EQ(engine.raw_pairs, 0);  // the first pair was rectified at the source already
  std::optional<StereoPair> raw = src->next();
  ASSERT_TRUE(raw->needs_remap);
  const DisparityResult result = match_rectifying_pair(engine, *raw, small_params());
  EXPECT_EQ(engine.raw_pairs, 1);
  const StereoPair expected = rectified(1);
  EXPECT_EQ(raw->left, expected.left);
  EXPECT_EQ(raw->right, expected.right);
  EXPECT_FALSE(raw->needs_remap);
  CpuEngine cpu;
  EXPECT_EQ(result.disparity_fixed,
            cpu.compute(expected.left, expected.right, small_params()).disparity_fixed);
}

TEST_F(RemapHandoffTest, PairsOfOtherSourcesAreMatchedAsTheyAre) {
  StereoPair plain = RawSceneSource().pair(0);
  CpuEngine cpu;
  const DisparityResult result = match_rectifying_pair(cpu, plain, small_params());
  EXPECT_EQ(plain.left, RawSceneSource().pair(0).left);
  EXPECT_EQ(result.disparity_fixed,
            cpu.compute(plain.left, plain.right, small_params()).disparity_fixed);
}

// The frame loop end to end: the published frames show rectified views and their disparities
// with either engine, and with the remapping engine the source stops remapping.
void run_frame_loop(RectifiedSource& src, EngineFactory factory, int frames,
                    const std::function<void(const ProcessedFrame&)>& check) {
  PairQueue queue(1, QueueFullPolicy::Block);
  ProcessingThread thread(queue, std::move(factory), "test", small_params());
  thread.start();
  for (int i = 0; i < frames; ++i) {
    ASSERT_TRUE(queue.push(*src.next()));
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    std::optional<ProcessedFrame> frame;
    while (!frame && std::chrono::steady_clock::now() < deadline) {
      frame = thread.take_latest();
      if (!frame) std::this_thread::sleep_for(1ms);
    }
    ASSERT_TRUE(frame) << "frame " << i << " never came";
    check(*frame);
  }
  thread.stop();
}

TEST_F(RemapHandoffTest, TheFrameLoopShowsRectifiedPairsWithEitherEngine) {
  for (const Depth depth : {Depth::Eight, Depth::Sixteen, Depth::Float}) {
    for (const bool remapping : {false, true}) {
      SCOPED_TRACE(std::string(remapping ? "remapping engine, " : "CPU engine, ") +
                   (depth == Depth::Eight ? "8-bit" : depth == Depth::Sixteen ? "16-bit" : "float"));
      auto src = source(depth);
      // The engine dies with the processing thread, so its count is read before the thread stops.
      int raw_pairs = -1;
      RemappingEngine* made = nullptr;
      EngineFactory factory = [&](const std::string&, std::ostream&) -> std::unique_ptr<StereoEngine> {
        if (!remapping) return std::make_unique<CpuEngine>();
        auto engine = std::make_unique<RemappingEngine>();
        made = engine.get();
        return engine;
      };
      int seen = 0;
      run_frame_loop(*src, factory, 3, [&](const ProcessedFrame& frame) {
        const StereoPair expected = rectified(static_cast<int>(frame.pair.index), depth);
        EXPECT_EQ(frame.pair.left, expected.left) << "frame " << frame.pair.index;
        EXPECT_EQ(frame.pair.right, expected.right);
        EXPECT_EQ(frame.pair.left16, expected.left16);
        EXPECT_TRUE(same_floats(frame.pair.rightf, expected.rightf));
        EXPECT_FALSE(frame.pair.needs_remap);
        EXPECT_EQ(frame.result.disparity_fixed, disparity_of(expected));
        ++seen;
        // The thread matched this frame and waits for the next pair: its engine is alive and idle.
        if (made != nullptr) raw_pairs = made->raw_pairs;
      });
      EXPECT_EQ(seen, 3);
      // With the remapping engine the pairs after the first came raw (the engine remapped them).
      if (remapping) {
        ASSERT_NE(made, nullptr);
        EXPECT_EQ(raw_pairs, 2);
      }
    }
  }
}

}  // namespace
}  // namespace sv
