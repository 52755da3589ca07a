// PlaybackSource: seeking, holding at the end, looping and pacing of a file source steered from
// another thread, and parse_source_flags, the viewer's reading of the CLI's source flags.
#include "src/app/playback_source.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "src/app/source_factory.h"

namespace sv {
namespace {

// A file of `count` 2x1 pairs whose left pixel holds the index; seeks when `seekable`.
class CountingSource : public FrameSource {
 public:
  CountingSource(int64_t count, double fps, bool seekable = true)
      : count_(count), fps_(fps), seekable_(seekable) {}
  std::string describe() const override { return "counting"; }
  bool is_live() const override { return false; }
  int64_t frame_count() const override { return count_; }
  double frames_per_second() const override { return fps_; }
  std::optional<StereoPair> next() override {
    if (next_ >= count_) return std::nullopt;
    StereoPair pair;
    pair.index = next_++;
    pair.left = ImageRgb8(2, 1);
    pair.right = ImageRgb8(2, 1);
    return pair;
  }
  bool seek(int64_t index) override {
    if (!seekable_ || index < 0 || index >= count_) return false;
    next_ = index;
    return true;
  }

 private:
  int64_t count_;
  double fps_;
  bool seekable_;
  int64_t next_ = 0;
};

struct Playback {
  std::shared_ptr<PlaybackControls> controls;
  std::unique_ptr<PlaybackSource> source;
  std::vector<std::string> notices;
};

std::unique_ptr<Playback> make_playback(int64_t count, bool loop, bool paced, double fps = 1000.0,
                                        bool seekable = true) {
  auto p = std::make_unique<Playback>();
  p->controls = std::make_shared<PlaybackControls>(loop, paced);
  Playback* raw = p.get();
  p->source = std::make_unique<PlaybackSource>(
      std::make_unique<CountingSource>(count, fps, seekable), p->controls, std::nullopt,
      [raw](const std::string& m) { raw->notices.push_back(m); });
  return p;
}

int64_t next_index(PlaybackSource& source) {
  const auto pair = source.next();
  return pair ? pair->index : -1;
}

TEST(PlaybackSource, DeliversInOrderAndSeeksToTheRequestedFrame) {
  auto p = make_playback(10, false, false);
  EXPECT_EQ(next_index(*p->source), 0);
  EXPECT_EQ(next_index(*p->source), 1);
  p->controls->request_seek(7);
  EXPECT_EQ(next_index(*p->source), 7);
  EXPECT_EQ(next_index(*p->source), 8);
  p->controls->request_seek(100);  // past the end: the last frame
  EXPECT_EQ(next_index(*p->source), 9);
  EXPECT_EQ(p->source->frame_count(), 10);
}

TEST(PlaybackSource, AFirstPairReadEarlierComesFirst) {
  auto controls = std::make_shared<PlaybackControls>(false, false);
  auto inner = std::make_unique<CountingSource>(5, 30.0);
  std::optional<StereoPair> first = inner->next();
  PlaybackSource source(std::move(inner), controls, std::move(first));
  EXPECT_EQ(next_index(source), 0);
  EXPECT_EQ(next_index(source), 1);
}

TEST(PlaybackSource, HoldsAtTheEndUntilASeekThenPlaysOn) {
  auto p = make_playback(3, false, false);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(next_index(*p->source), i);
  std::thread steer([&] {
    while (!p->controls->at_end()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    p->controls->request_seek(1);
  });
  EXPECT_EQ(next_index(*p->source), 1);  // blocked at the end until the seek came
  steer.join();
  EXPECT_FALSE(p->controls->at_end());
  EXPECT_EQ(next_index(*p->source), 2);
}

TEST(PlaybackSource, SwitchingLoopOnAtTheEndStartsAgain) {
  auto p = make_playback(2, false, false);
  EXPECT_EQ(next_index(*p->source), 0);
  EXPECT_EQ(next_index(*p->source), 1);
  std::thread steer([&] {
    while (!p->controls->at_end()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    p->controls->set_loop(true);
  });
  EXPECT_EQ(next_index(*p->source), 0);
  steer.join();
  EXPECT_EQ(next_index(*p->source), 1);
  EXPECT_EQ(next_index(*p->source), 0);  // looping now without waiting
}

TEST(PlaybackSource, CancelEndsAWaitAtTheEnd) {
  auto p = make_playback(1, false, false);
  EXPECT_EQ(next_index(*p->source), 0);
  std::thread steer([&] {
    while (!p->controls->at_end()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    p->controls->cancel();
  });
  EXPECT_EQ(next_index(*p->source), -1);
  steer.join();
  EXPECT_EQ(next_index(*p->source), -1);
}

TEST(PlaybackSource, ASourceThatCannotSeekSaysSo) {
  auto p = make_playback(5, false, false, 30.0, /*seekable=*/false);
  EXPECT_EQ(next_index(*p->source), 0);
  p->controls->request_seek(3);
  EXPECT_EQ(next_index(*p->source), 1);  // plays on
  ASSERT_EQ(p->notices.size(), 1u);
  EXPECT_EQ(p->notices[0], "counting: cannot seek to frame 3");
}

TEST(PlaybackSource, PacedPlaysAtTheFileRateAndUnpacedAsFastAsPossible) {
  using Clock = std::chrono::steady_clock;
  auto paced = make_playback(100, false, true, 50.0);  // 20 ms a frame
  auto start = Clock::now();
  for (int i = 0; i < 6; ++i) next_index(*paced->source);
  const double paced_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  EXPECT_GE(paced_ms, 5 * 20.0 - 2.0);  // the first goes at once, then one per period
  EXPECT_LT(paced_ms, 5 * 20.0 + 80.0);

  paced->controls->set_paced(false);
  start = Clock::now();
  for (int i = 0; i < 20; ++i) next_index(*paced->source);
  const double fast_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  EXPECT_LT(fast_ms, 15.0);
}

TEST(ParseSourceFlags, ReadsTheCliSourceFlags) {
  CliOptions o = parse_source_flags({"--sbs", "stereo.avi", "--calib", "c.yaml", "--loop"});
  EXPECT_EQ(o.source, "sbs");
  EXPECT_EQ(o.packed_video_path, "stereo.avi");
  EXPECT_EQ(o.calib_path, "c.yaml");
  EXPECT_TRUE(o.loop);
  o = parse_source_flags({"--camera", "2", "3", "--camera-format=yuyv"});
  EXPECT_EQ(o.source, "camera");
  EXPECT_EQ(o.cameras, (std::vector<int>{2, 3}));
  EXPECT_EQ(o.camera_format, "YUYV");
  o = parse_source_flags({});
  EXPECT_EQ(o.source, "synthetic");
  EXPECT_EQ(parse_source_flags({"--list-cameras"}).command, CliCommand::ListCameras);
}

TEST(ParseSourceFlags, RefusesOtherFlagsAndMistakes) {
  auto error = [](const std::vector<std::string>& flags) -> std::string {
    try {
      parse_source_flags(flags);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({"--out", "dir"}), "unknown option --out (see --help)");
  EXPECT_EQ(error({"--bogus"}), "unknown option --bogus (see --help)");
  EXPECT_EQ(error({"--right", "r.png"}), "--left and --right must be given together");
  EXPECT_EQ(error({"--sbs"}), "--sbs needs a value");
}

}  // namespace
}  // namespace sv
