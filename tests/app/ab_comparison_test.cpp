// The A/B comparison's logic without a display (issue 22): B's processing thread fed by the
// pipeline's fan-out computes the same pairs as A, its results are matched with A's by pair and
// their difference equals that of the two results computed directly; a changed B parameter is
// recomputed on the pair while paused; the command line and scripts set B up or say why not.
#include "ui/ab_comparison.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "src/app/engine_factory.h"
#include "src/app/param_script.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "ui/viewer_options.h"

namespace sv {
namespace {

using namespace std::chrono_literals;

SyntheticSceneConfig small_scene() {
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 16;
  return config;
}

StereoPair scene_pair(int index) {
  const SyntheticFrame frame = SyntheticScene(small_scene()).render(index);
  StereoPair pair;
  pair.index = index;
  pair.timestamp_s = frame.timestamp_s;
  pair.left = frame.left;
  pair.right = frame.right;
  return pair;
}

StereoParams scene_params() {
  StereoParams params;
  params.num_disparities = 16;
  params.fill_holes = false;
  return params;
}

// The viewer's wiring, minus the window: a source queue, the fan-out, A's processing thread on
// its own queue and B on the AbComparison.
struct Rig {
  PairQueue input{1, QueueFullPolicy::Block};
  std::shared_ptr<PairQueue> a_queue = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);
  PairFanOut fan_out{input};
  ProcessingThread a{*a_queue, make_engine, "reference", scene_params()};
  AbComparison ab;

  explicit Rig(const StereoParams& b_params, bool paused = false) {
    fan_out.attach(a_queue);
    ab.start(fan_out, QueueFullPolicy::Block, make_engine, "reference", b_params, ResultParts{},
             std::nullopt, paused);
    a.set_paused(paused);
    fan_out.start();
    a.start();
  }
  ~Rig() {
    ab.stop();
    a.stop();
    fan_out.stop();
  }
  // Hands A's results to the comparison and collects B's until `done` or 20 s.
  template <typename Done>
  bool pump(Done done) {
    const auto give_up = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < give_up) {
      if (auto frame = a.take_latest()) ab.add_a(*frame);
      std::vector<std::string> messages;
      ab.collect_b(messages);
      for (const auto& m : messages) ADD_FAILURE() << "B: " << m;
      if (done()) return true;
      std::this_thread::sleep_for(2ms);
    }
    return false;
  }
};

TEST(AbComparison, BComputesThePairsOfAAndTheirDifferenceIsThatOfTheTwoResults) {
  StereoParams b_params = scene_params();
  b_params.p2 = 200;
  Rig rig(b_params);
  std::thread producer([&] {
    for (int i = 0; i < 4; ++i) rig.input.push(scene_pair(i));
  });
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match() && rig.ab.match()->a.key.index == 3; }));
  producer.join();
  const AbMatch& match = *rig.ab.match();
  EXPECT_EQ(match.b.key.index, 3);
  EXPECT_EQ(match.b.params.p2, 200);
  EXPECT_EQ(match.a.params.p2, scene_params().p2);
  EXPECT_EQ(rig.ab.timings_b().frames(), 4u);  // B computed every pair, as A did
  const StereoPair pair = scene_pair(3);
  const ImageF32 a = CpuEngine().compute(pair.left, pair.right, scene_params()).disparity;
  const ImageF32 b = CpuEngine().compute(pair.left, pair.right, b_params).disparity;
  const DisparityDifference expected = disparity_difference(a, b);
  EXPECT_GT(expected.counts.changed(), 0);
  EXPECT_EQ(match.difference.counts.changed(), expected.counts.changed());
  EXPECT_EQ(match.difference.counts.only_a, expected.counts.only_a);
  EXPECT_EQ(match.difference.counts.only_b, expected.counts.only_b);
  EXPECT_EQ(match.difference.kind.data()[0], expected.kind.data()[0]);
  for (size_t i = 0; i < expected.kind.size(); ++i) {
    ASSERT_EQ(match.difference.kind.data()[i], expected.kind.data()[i]) << i;
  }
  const std::vector<std::string> lines = ab_summary_lines(match);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "A/B frame 3: p2 40 -> 200");
  EXPECT_EQ(
      lines[3].rfind("difference: " + std::to_string(expected.counts.changed()) + " of 6144", 0),
      0u)
      << lines[3];
}

TEST(AbComparison, WithTheSameParametersNothingDiffersAndTheTruthGivesEachSideItsError) {
  Rig rig(scene_params());
  const SourceTruth truth = SourceTruth::of_synthetic(small_scene());
  rig.ab.set_truth([truth](const AbPairKey& key) { return truth.at(key.index); });
  rig.input.push(scene_pair(0));
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match() && !rig.ab.errors_pending(); }));
  const AbMatch& match = *rig.ab.match();
  EXPECT_TRUE(match.evaluated);
  EXPECT_EQ(match.difference.counts.changed(), 0);
  ASSERT_TRUE(match.a.errors && match.b.errors);
  EXPECT_EQ(match.a.errors->bad_1, match.b.errors->bad_1);
  EXPECT_GT(match.a.errors->pixels, 1000);
  EXPECT_EQ(ab_parameter_changes(match.a.params, match.b.params), "same parameters");
  EXPECT_NE(ab_summary_lines(match)[1].find("bad-1 "), std::string::npos);
}

// Errors take a render of the ground truth, on a worker: until a pair's come, the last pair's are
// shown with their frame number.
TEST(AbComparison, UntilAPairsErrorsComeTheLastOnesShowWithTheirFrame) {
  Rig rig(scene_params());
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  const SourceTruth truth = SourceTruth::of_synthetic(small_scene());
  rig.ab.set_truth([released, truth](const AbPairKey& key) {
    if (key.index == 1) released.wait();
    return truth.at(key.index);
  });
  rig.input.push(scene_pair(0));
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match() && rig.ab.match()->evaluated; }));
  rig.input.push(scene_pair(1));
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match() && rig.ab.match()->a.key.index == 1; }));
  EXPECT_FALSE(rig.ab.match()->evaluated);
  EXPECT_TRUE(rig.ab.errors_pending());
  EXPECT_EQ(rig.ab.match()->errors_index, 0);
  ASSERT_TRUE(rig.ab.match()->a.errors.has_value());
  EXPECT_NE(ab_summary_lines(*rig.ab.match())[1].find("(frame 0)"), std::string::npos);
  release.set_value();
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match()->evaluated; }));
  EXPECT_EQ(rig.ab.match()->errors_index, 1);
  EXPECT_EQ(ab_summary_lines(*rig.ab.match())[1].find("(frame"), std::string::npos);
}

TEST(AbComparison, PausedAChangeOfBsParametersIsComputedOnTheSamePair) {
  Rig rig(scene_params(), /*paused=*/true);
  rig.input.push(scene_pair(0));
  rig.a.step();  // B, started paused, computes one pair by itself
  ASSERT_TRUE(rig.pump([&] { return rig.ab.match().has_value(); }));
  EXPECT_EQ(rig.ab.match()->difference.counts.changed(), 0);
  StereoParams changed = scene_params();
  changed.p2 = 220;
  const uint64_t generation = rig.ab.processing()->set_params(changed);
  ASSERT_TRUE(rig.pump(
      [&] { return rig.ab.match() && rig.ab.match()->b.params_generation == generation; }));
  EXPECT_EQ(rig.ab.match()->b.key.index, 0);
  EXPECT_GT(rig.ab.match()->difference.counts.changed(), 0);
  // Stopped, B leaves nothing behind and the fan-out feeds A alone.
  rig.ab.stop();
  EXPECT_FALSE(rig.ab.running());
  EXPECT_FALSE(rig.ab.match().has_value());
}

// A/B switched on while paused: B starts on the pair on screen, which the source will not send
// again.
TEST(AbComparison, SwitchedOnWhilePausedBComputesThePairOnScreen) {
  PairQueue input{1, QueueFullPolicy::Block};
  PairFanOut fan_out{input};
  fan_out.start();
  AbComparison ab;
  StereoParams b_params = scene_params();
  b_params.p2 = 200;
  ab.start(fan_out, QueueFullPolicy::Block, make_engine, "reference", b_params, ResultParts{},
           scene_pair(7), /*paused=*/true);
  ProcessedFrame a;
  a.sequence = 1;
  a.pair = scene_pair(7);
  a.params = scene_params();
  a.result.disparity = CpuEngine().compute(a.pair.left, a.pair.right, a.params).disparity;
  ab.add_a(a);
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  std::vector<std::string> messages;
  while (!ab.match() && std::chrono::steady_clock::now() < give_up) {
    ab.collect_b(messages);
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_TRUE(ab.match().has_value());
  EXPECT_EQ(ab.match()->b.key.index, 7);
  EXPECT_GT(ab.match()->difference.counts.changed(), 0);
  EXPECT_EQ(ab.processing()->status().processed, 1);
  ab.stop();
  fan_out.stop();
}

ViewerOptions parse(std::vector<const char*> args) {
  args.insert(args.begin(), "stereoview-viewer");
  return parse_viewer_options(static_cast<int>(args.size()), args.data());
}

std::string usage_error(std::vector<const char*> args) {
  try {
    parse(std::move(args));
  } catch (const ViewerUsageError& e) {
    return e.what();
  }
  return "";
}

TEST(AbCommandLine, CompareSetsUpBFromAAndStartsSideBySide) {
  ViewerOptions o = parse({"--p1", "9", "--compare-set", "p2=200", "--compare-set=uniqueness=30"});
  EXPECT_TRUE(o.compare);
  EXPECT_EQ(o.compare_params.p1, 9);  // from A
  EXPECT_EQ(o.compare_params.p2, 200);
  EXPECT_EQ(o.compare_params.uniqueness, 30);
  EXPECT_EQ(o.params.p2, StereoParams{}.p2);
  EXPECT_EQ(o.settings.layout, 2);
  EXPECT_EQ(o.settings.views[0], ViewKind::Disparity);
  EXPECT_EQ(o.settings.views[1], ViewKind::DisparityB);
  o = parse({"--compare-engine", "cpu", "--view", "difference"});
  EXPECT_TRUE(o.compare);
  EXPECT_EQ(o.compare_engine, "cpu");
  EXPECT_EQ(o.settings.layout, 1);
  EXPECT_EQ(o.settings.views[0], ViewKind::Difference);
  o = parse({});
  EXPECT_FALSE(o.compare);

  EXPECT_NE(usage_error({"--compare-set", "p2"}).find("--compare-set needs KEY=VALUE"),
            std::string::npos);
  EXPECT_NE(usage_error({"--compare-set", "nonsense=3"}).find("unknown parameter \"nonsense\""),
            std::string::npos);
  EXPECT_NE(usage_error({"--compare-set", "p2=1000"}).find("--compare: B's parameters: "),
            std::string::npos);
  EXPECT_NE(usage_error({"--compare-set", "p2=lots"}).find("--compare-set: "), std::string::npos);
  EXPECT_NE(usage_error({"--compare-engine", "gpu"}).find("--compare-engine must be"),
            std::string::npos);
  EXPECT_NE(usage_error({"--compare", "/nonexistent/b.preset"}).find("--compare: "),
            std::string::npos);
}

TEST(AbScript, ParsesTheAbCommandsAndRejectsMistakesWithTheirLine) {
  const auto events = parse_param_script(
      "at frame 1 ab on\n"
      "at frame 1 ab set p2 = 200\n"
      "at frame 2 ab engine cpu\n"
      "at frame 2 ab copy a-to-b\n"
      "at frame 3 ab edit b\n"
      "at frame 3 ab view difference\n"
      "at frame 4 view disparity-b\n"
      "at frame 5 ab off\n");
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[0].action, ScriptAction::Ab);
  EXPECT_EQ(events[0].value, "on");
  EXPECT_EQ(events[1].action, ScriptAction::AbSetParam);
  EXPECT_EQ(events[1].key, "p2");
  EXPECT_EQ(events[1].value, "200");
  EXPECT_EQ(events[2].value, "engine cpu");
  EXPECT_EQ(events[3].value, "copy a-to-b");
  EXPECT_EQ(events[4].value, "edit b");
  EXPECT_EQ(events[5].value, "view difference");
  EXPECT_EQ(events[6].action, ScriptAction::View);
  EXPECT_EQ(events[6].value, "disparity-b");
  EXPECT_EQ(events[7].value, "off");

  auto error = [](const std::string& text) {
    try {
      parse_param_script(text, "s.txt");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("at 1 ab\n").find("s.txt:1: usage: ab on | off"), std::string::npos);
  EXPECT_NE(error("at 1 ab copy a\n").find("s.txt:1: usage: ab"), std::string::npos);
  EXPECT_NE(error("at 1 ab engine gpu\n").find("usage: ab"), std::string::npos);
  EXPECT_NE(error("at 1 ab on now\n").find("usage: ab"), std::string::npos);
  EXPECT_NE(error("\nat 1 ab set p2 = lots\n").find("s.txt:2: "), std::string::npos);
  EXPECT_NE(error("at 1 ab set nonsense = 1\n").find("unknown parameter"), std::string::npos);
}

TEST(AbScript, ACommandDoesWhatThePanelDoes) {
  AbSettings ab;
  AbRequests requests;
  ViewerSettings settings;
  apply_ab_command("on", ab, requests, settings);
  ASSERT_TRUE(requests.enable.has_value());
  EXPECT_TRUE(*requests.enable);
  apply_ab_command("off", ab, requests, settings);
  EXPECT_FALSE(*requests.enable);
  apply_ab_command("engine cuda", ab, requests, settings);
  EXPECT_EQ(requests.engine, "cuda");
  apply_ab_command("copy b-to-a", ab, requests, settings);
  EXPECT_TRUE(requests.copy_b_to_a);
  EXPECT_FALSE(requests.copy_a_to_b);
  apply_ab_command("copy a-to-b", ab, requests, settings);
  EXPECT_TRUE(requests.copy_a_to_b);
  apply_ab_command("edit b", ab, requests, settings);
  EXPECT_EQ(ab.edited, AbSide::B);
  apply_ab_command("edit a", ab, requests, settings);
  EXPECT_EQ(ab.edited, AbSide::A);
  apply_ab_command("view difference", ab, requests, settings);
  EXPECT_EQ(settings.layout, 1);
  EXPECT_EQ(settings.views[0], ViewKind::Difference);
  apply_ab_command("view side", ab, requests, settings);
  EXPECT_EQ(settings.layout, 2);
  EXPECT_EQ(settings.views[0], ViewKind::Disparity);
  EXPECT_EQ(settings.views[1], ViewKind::DisparityB);
  EXPECT_FALSE(requests.params_changed);  // "ab set" is the viewer's: it validates B's change
}

}  // namespace
}  // namespace sv
