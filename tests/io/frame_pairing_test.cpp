#include "src/io/frame_pairing.h"

#include <gtest/gtest.h>

#include <vector>

namespace sv {
namespace {

using Pairer = TimestampPairer<int>;

// Takes every pair the pairer has decided, as a capture loop does after each frame.
void drain(Pairer& pairer, std::vector<std::pair<int, int>>& pairs) {
  while (auto p = pairer.pop()) pairs.emplace_back(p->left.frame, p->right.frame);
}

std::vector<std::pair<int, int>> drain(Pairer& pairer) {
  std::vector<std::pair<int, int>> pairs;
  drain(pairer, pairs);
  return pairs;
}

TEST(TimestampPairer, SteadyStreamsWithAnOffsetAllPair) {
  Pairer pairer(0.018);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 10; ++i) {
    pairer.push_left(i / 30.0, i);
    pairer.push_right(i / 30.0 + 0.004, 100 + i);
    drain(pairer, pairs);
  }
  ASSERT_EQ(pairs.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(pairs[i], std::make_pair(i, 100 + i));
  EXPECT_EQ(pairer.stats().pairs, 10);
  EXPECT_EQ(pairer.stats().unpaired_left, 0);
  EXPECT_EQ(pairer.stats().unpaired_right, 0);
}

TEST(TimestampPairer, AMissingRightFrameLeavesOneLeftUnpaired) {
  Pairer pairer(0.010);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 6; ++i) {
    pairer.push_left(i * 0.033, i);
    if (i != 3) pairer.push_right(i * 0.033 + 0.002, 100 + i);
    drain(pairer, pairs);
  }
  ASSERT_EQ(pairs.size(), 5u);
  EXPECT_EQ(pairs[3], std::make_pair(4, 104));
  EXPECT_EQ(pairer.stats().unpaired_left, 1);
  EXPECT_EQ(pairer.stats().unpaired_right, 0);
}

TEST(TimestampPairer, HalfRateRightCameraLeavesEveryOtherLeftUnpaired) {
  Pairer pairer(0.010);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 8; ++i) {
    pairer.push_left(i * 0.033, i);
    if (i % 2 == 0) pairer.push_right(i * 0.033 + 0.001, 100 + i);
    drain(pairer, pairs);
  }
  ASSERT_EQ(pairs.size(), 4u);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(pairs[k], std::make_pair(2 * k, 100 + 2 * k));
  // 1, 3 and 5 were dropped when the next right frame showed they had no partner; 7 still waits.
  EXPECT_EQ(pairer.stats().unpaired_left, 3);
  EXPECT_EQ(pairer.stats().unpaired_right, 0);
}

TEST(TimestampPairer, AQueuedCloserFrameWins) {
  Pairer pairer(0.020);
  pairer.push_left(0.000, 0);
  pairer.push_left(0.015, 1);
  pairer.push_right(0.014, 100);  // within tolerance of both lefts, but closer to left 1
  const auto pairs = drain(pairer);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], std::make_pair(1, 100));
  EXPECT_EQ(pairer.stats().unpaired_left, 1);
}

TEST(TimestampPairer, FramesTooFarApartAreNeverPaired) {
  Pairer pairer(0.005);
  pairer.push_left(0.000, 0);
  pairer.push_right(0.020, 100);
  pairer.push_left(0.040, 1);
  EXPECT_FALSE(pairer.pop().has_value());
  EXPECT_EQ(pairer.stats().unpaired_left, 1);   // 0 was too early for 100
  EXPECT_EQ(pairer.stats().unpaired_right, 1);  // 100 too early for 1
  EXPECT_EQ(pairer.stats().pairs, 0);
}

TEST(TimestampPairer, NothingComesOutUntilBothSidesHaveFrames) {
  Pairer pairer(0.010, 3);
  for (int i = 0; i < 5; ++i) pairer.push_left(i * 0.033, i);
  EXPECT_FALSE(pairer.pop().has_value());
  // Only three frames are held: the two oldest were dropped and counted.
  EXPECT_EQ(pairer.stats().unpaired_left, 2);
  pairer.push_right(2 * 0.033 + 0.001, 102);
  const auto pairs = drain(pairer);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], std::make_pair(2, 102));
}

}  // namespace
}  // namespace sv
