#include "src/app/timing_history.h"

#include <gtest/gtest.h>

namespace sv {
namespace {

StageTimings timings(std::initializer_list<StageTiming> stages) {
  StageTimings t;
  for (const auto& s : stages) t.add(s.stage, s.milliseconds);
  return t;
}

TEST(TimingHistory, SummarizesLastMeanAndMaxPerStageInPipelineOrder) {
  TimingHistory history(10);
  history.add(timings({{"census", 2.0}, {"sgm", 10.0}}), 13.0);
  history.add(timings({{"census", 4.0}, {"sgm", 6.0}}), 11.0);
  history.add(timings({{"census", 3.0}, {"sgm", 8.0}}), 12.0);
  const auto rows = history.summary();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].stage, "census");
  EXPECT_DOUBLE_EQ(rows[0].last_ms, 3.0);
  EXPECT_DOUBLE_EQ(rows[0].mean_ms, 3.0);
  EXPECT_DOUBLE_EQ(rows[0].max_ms, 4.0);
  EXPECT_EQ(rows[0].samples, 3u);
  EXPECT_EQ(rows[1].stage, "sgm");
  EXPECT_DOUBLE_EQ(rows[1].last_ms, 8.0);
  EXPECT_DOUBLE_EQ(rows[1].mean_ms, 8.0);
  EXPECT_DOUBLE_EQ(rows[1].max_ms, 10.0);
}

TEST(TimingHistory, OnlyTheWindowCounts) {
  TimingHistory history(2);
  history.add(timings({{"wta", 100.0}}), 100.0);  // leaves the window below
  history.add(timings({{"wta", 1.0}}), 1.0);
  history.add(timings({{"wta", 3.0}}), 3.0);
  const auto rows = history.summary();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].max_ms, 3.0);
  EXPECT_DOUBLE_EQ(rows[0].mean_ms, 2.0);
  EXPECT_EQ(history.frame_times_ms(), (std::vector<float>{1.0f, 3.0f}));
  EXPECT_EQ(history.frames(), 2u);
}

TEST(TimingHistory, RepeatedStagesOfOneFrameAreSummedAndMissingOnesSkipped) {
  TimingHistory history(10);
  // Two pyramid levels: "cost" runs twice in the first frame.
  history.add(timings({{"cost", 1.0}, {"cost", 2.0}, {"median", 1.0}}), 4.0);
  history.add(timings({{"cost", 5.0}}), 5.0);
  const auto rows = history.summary();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0].mean_ms, 4.0);  // (3 + 5) / 2
  EXPECT_DOUBLE_EQ(rows[0].max_ms, 5.0);
  EXPECT_EQ(rows[1].stage, "median");
  EXPECT_EQ(rows[1].samples, 1u);
  EXPECT_DOUBLE_EQ(rows[1].last_ms, 1.0);
}

TEST(TimingHistory, StagesThatLeftTheWindowDisappearAndClearEmptiesAll) {
  TimingHistory history(1);
  history.add(timings({{"old", 1.0}}), 1.0);
  history.add(timings({{"new", 2.0}}), 2.0);
  const auto rows = history.summary();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].stage, "new");
  history.clear();
  EXPECT_TRUE(history.summary().empty());
  EXPECT_TRUE(history.frame_times_ms().empty());
}

TEST(RateMeter, CountsEventsPerSecondOverItsWindow) {
  using Clock = RateMeter::Clock;
  const Clock::time_point t0{};
  RateMeter meter(1.0);
  EXPECT_EQ(meter.per_second(t0), 0.0);
  for (int i = 0; i <= 10; ++i) meter.tick(t0 + std::chrono::milliseconds(100 * i));
  // 11 ticks 100 ms apart, the window keeps about the last second: 10 intervals per second.
  EXPECT_NEAR(meter.per_second(t0 + std::chrono::milliseconds(1000)), 10.0, 0.01);
  // Silent for a long time: the rate falls to 0 instead of freezing at its last value.
  EXPECT_EQ(meter.per_second(t0 + std::chrono::seconds(10)), 0.0);
}

}  // namespace
}  // namespace sv

namespace sv {
namespace {

// A GPU frame's timings gain the host's own time as their last row, shown in the timings panel;
// a CPU frame (no device span) is host time throughout and gets no extra row.
TEST(TimingHistory, GpuFramesShowTheHostsOwnTimeAsALastRow) {
  StageTimings gpu;
  gpu.add("sgm", 2.0);
  gpu.device_span_ms = 2.5;
  const StageTimings shown = with_host_time(gpu, 0.4);
  ASSERT_EQ(shown.stages.size(), 2u);
  EXPECT_EQ(shown.stages.back().stage, kHostStage);
  EXPECT_DOUBLE_EQ(shown.stages.back().milliseconds, 0.4);

  StageTimings cpu;
  cpu.add("sgm", 40.0);
  EXPECT_EQ(with_host_time(cpu, 40.0).stages.size(), 1u);
}

}  // namespace
}  // namespace sv
