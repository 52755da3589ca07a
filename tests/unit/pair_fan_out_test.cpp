// The A/B fan-out (issue 22): every pair of the input reaches both sides, in order and with its
// own pixels, whatever their speeds; the end of the input ends both; detaching or stopping never
// hangs on a full queue.
#include "src/app/pair_fan_out.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace sv {
namespace {

using namespace std::chrono_literals;

StereoPair numbered_pair(int64_t index) {
  StereoPair pair;
  pair.index = index;
  pair.left = ImageRgb8(3, 2, Rgb8{static_cast<uint8_t>(index & 0xff), 1, 2});
  pair.right = ImageRgb8(3, 2, Rgb8{static_cast<uint8_t>((index * 7) & 0xff), 3, 4});
  return pair;
}

// Pops until the queue ends; `delay` per pair makes a slow consumer.
std::vector<int64_t> consume(PairQueue& queue, std::chrono::milliseconds delay) {
  std::vector<int64_t> indices;
  while (auto pair = queue.pop()) {
    EXPECT_EQ(pair->left.at(2, 1).r, pair->index & 0xff);
    EXPECT_EQ(pair->right.at(0, 0).r, (pair->index * 7) & 0xff);
    indices.push_back(pair->index);
    std::this_thread::sleep_for(delay);
  }
  return indices;
}

TEST(PairFanOut, EveryPairOfAFileReachesBothSidesInOrder) {
  constexpr int64_t kPairs = 120;
  PairQueue input(1, QueueFullPolicy::Block);
  auto a = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);
  auto b = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);
  PairFanOut fan_out(input);
  fan_out.attach(a);
  fan_out.attach(b);
  fan_out.start();
  std::thread producer([&] {
    for (int64_t i = 0; i < kPairs; ++i) input.push(numbered_pair(i));
    input.close();
  });
  std::vector<int64_t> got_a, got_b;
  std::thread fast([&] { got_a = consume(*a, 0ms); });
  std::thread slow([&] { got_b = consume(*b, 1ms); });
  producer.join();
  fast.join();
  slow.join();
  fan_out.stop();
  ASSERT_EQ(got_a.size(), static_cast<size_t>(kPairs));
  ASSERT_EQ(got_b.size(), static_cast<size_t>(kPairs));
  for (int64_t i = 0; i < kPairs; ++i) {
    EXPECT_EQ(got_a[i], i);
    EXPECT_EQ(got_b[i], i);
  }
  EXPECT_EQ(fan_out.forwarded(), kPairs);
}

TEST(PairFanOut, AnOutputAttachedLaterGetsThePairsFromThenOn) {
  PairQueue input(4, QueueFullPolicy::Block);
  auto a = std::make_shared<PairQueue>(16, QueueFullPolicy::Block);
  auto b = std::make_shared<PairQueue>(16, QueueFullPolicy::Block);
  PairFanOut fan_out(input);
  fan_out.attach(a);
  fan_out.start();
  for (int64_t i = 0; i < 3; ++i) input.push(numbered_pair(i));
  while (fan_out.forwarded() < 3) std::this_thread::sleep_for(1ms);
  fan_out.attach(b);
  for (int64_t i = 3; i < 6; ++i) input.push(numbered_pair(i));
  input.close();
  const std::vector<int64_t> got_a = consume(*a, 0ms);
  const std::vector<int64_t> got_b = consume(*b, 0ms);
  EXPECT_EQ(got_a, (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(got_b, (std::vector<int64_t>{3, 4, 5}));
  // The input has ended: a queue attached now is closed at once.
  auto late = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);
  fan_out.stop();
  fan_out.attach(late);
  EXPECT_TRUE(late->closed());
}

TEST(PairFanOut, DetachingAFullOutputFreesTheOtherSide) {
  PairQueue input(1, QueueFullPolicy::Block);
  auto a = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);
  auto b = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);  // never read: fills up
  PairFanOut fan_out(input);
  fan_out.attach(a);
  fan_out.attach(b);
  fan_out.start();
  std::thread producer([&] {
    for (int64_t i = 0; i < 20; ++i) input.push(numbered_pair(i));
    input.close();
  });
  std::vector<int64_t> got_a;
  std::thread reader([&] { got_a = consume(*a, 0ms); });
  // B blocks the fan-out after a pair or two; A stalls with it until B goes.
  std::this_thread::sleep_for(50ms);
  EXPECT_LT(fan_out.forwarded(), 20);
  fan_out.detach(b);
  EXPECT_TRUE(b->closed());
  producer.join();
  reader.join();
  EXPECT_EQ(got_a.size(), 20u);
  fan_out.stop();
}

TEST(PairFanOut, StopReturnsWhileAPushIsBlocked) {
  PairQueue input(1, QueueFullPolicy::Block);
  auto a = std::make_shared<PairQueue>(1, QueueFullPolicy::Block);  // never read
  PairFanOut fan_out(input);
  fan_out.attach(a);
  fan_out.start();
  input.push(numbered_pair(0));
  input.push(numbered_pair(1));
  std::this_thread::sleep_for(30ms);  // the fan-out now waits for room in `a`
  const auto start = std::chrono::steady_clock::now();
  fan_out.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_TRUE(a->closed());
}

TEST(PairFanOut, ALiveSourceDropsInTheSlowSideOnly) {
  PairQueue input(1, QueueFullPolicy::DropOldest);
  auto fast = std::make_shared<PairQueue>(1, QueueFullPolicy::DropOldest);
  auto slow = std::make_shared<PairQueue>(1, QueueFullPolicy::DropOldest);
  PairFanOut fan_out(input);
  fan_out.attach(fast);
  fan_out.attach(slow);
  fan_out.start();
  std::vector<int64_t> got_fast;
  std::thread reader([&] { got_fast = consume(*fast, 0ms); });
  for (int64_t i = 0; i < 30; ++i) {
    input.push(numbered_pair(i));
    std::this_thread::sleep_for(2ms);
  }
  // Let the fan-out take the last pair before the input ends.
  while (fan_out.forwarded() < 30 && input.size() > 0) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  input.close();
  reader.join();
  const std::vector<int64_t> got_slow = consume(*slow, 0ms);
  fan_out.stop();
  // The unread side kept only the newest pair; the fan-out never waited for it.
  ASSERT_EQ(got_slow.size(), 1u);
  EXPECT_EQ(got_slow[0], 29);
  EXPECT_GT(slow->dropped(), 0u);
  ASSERT_FALSE(got_fast.empty());
  EXPECT_EQ(got_fast.back(), 29);
}

}  // namespace
}  // namespace sv
