#include "src/app/viewer_loop_timing.h"

#include <gtest/gtest.h>

#include <sstream>

#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

StereoPair synthetic_pair(int width, int height) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = 12;
  const SyntheticFrame frame = SyntheticScene(config).render(0);
  StereoPair pair;
  pair.left = frame.left;
  pair.right = frame.right;
  return pair;
}

class FailingEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "failing"; }
  DisparityResult match(const ImageU8&, const ImageU8&, const StereoParams&) override {
    throw RuntimeError("the device fell off the bus");
  }
};

TEST(ViewerLoopTiming, TheCpuEnginesFramesAreTimedAfterTheWarmUp) {
  StereoParams params;
  params.num_disparities = 16;
  const ViewerLoopTimes t =
      time_viewer_loop(make_engine, "cpu", synthetic_pair(64, 48), params, false, 2, 12);
  ASSERT_FALSE(t.host_ms.empty());
  EXPECT_LE(t.host_ms.size(), 12u);  // the newest result only, so some may go unseen
  for (double ms : t.host_ms) EXPECT_GE(ms, 0.0);
  EXPECT_GT(t.frames_per_second, 0.0);
}

TEST(ViewerLoopTiming, AFailingFrameEndsTheBenchWithItsError) {
  const EngineFactory failing = [](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new FailingEngine);
  };
  try {
    time_viewer_loop(failing, "failing", synthetic_pair(32, 24), StereoParams{}, false, 1, 5);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("bench --viewer-loop: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the device fell off the bus"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sv
