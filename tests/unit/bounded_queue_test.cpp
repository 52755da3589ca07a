#include "src/app/bounded_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace sv {
namespace {

using namespace std::chrono_literals;

TEST(BoundedQueue, DropOldestKeepsTheNewestAndCountsDrops) {
  BoundedQueue<int> queue(2, QueueFullPolicy::DropOldest);
  for (int i = 1; i <= 5; ++i) EXPECT_TRUE(queue.push(i));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.dropped(), 3u);
  EXPECT_EQ(queue.try_pop(), 4);
  EXPECT_EQ(queue.try_pop(), 5);
  EXPECT_EQ(queue.try_pop(), std::nullopt);
}

TEST(BoundedQueue, BlockWaitsForRoomAndNeverDrops) {
  BoundedQueue<int> queue(1, QueueFullPolicy::Block);
  ASSERT_TRUE(queue.push(1));
  std::atomic<bool> second_pushed{false};
  std::thread producer([&] {
    queue.push(2);
    second_pushed = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(second_pushed) << "push() into a full blocking queue returned early";
  EXPECT_EQ(queue.pop(), 1);
  producer.join();
  EXPECT_TRUE(second_pushed);
  EXPECT_EQ(queue.pop(), 2);
  EXPECT_EQ(queue.dropped(), 0u);
}

TEST(BoundedQueue, ProducerAndConsumerPassEveryItemInOrder) {
  BoundedQueue<int> queue(3, QueueFullPolicy::Block);
  constexpr int kCount = 2000;
  std::thread producer([&] {
    for (int i = 0; i < kCount; ++i) queue.push(i);
    queue.close();
  });
  std::vector<int> received;
  while (auto item = queue.pop()) received.push_back(*item);
  producer.join();
  ASSERT_EQ(received.size(), static_cast<size_t>(kCount));
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(received[i], i);
}

TEST(BoundedQueue, CloseWakesABlockedConsumer) {
  BoundedQueue<int> queue(2, QueueFullPolicy::Block);
  std::optional<int> result = 42;
  std::thread consumer([&] { result = queue.pop(); });
  std::this_thread::sleep_for(20ms);
  queue.close();
  consumer.join();
  EXPECT_EQ(result, std::nullopt);
}

TEST(BoundedQueue, CloseWakesABlockedProducerAndRefusesNewItems) {
  BoundedQueue<int> queue(1, QueueFullPolicy::Block);
  queue.push(1);
  std::atomic<int> pushed{-1};
  std::thread producer([&] { pushed = queue.push(2) ? 1 : 0; });
  std::this_thread::sleep_for(20ms);
  queue.close();
  producer.join();
  EXPECT_EQ(pushed, 0);
  EXPECT_FALSE(queue.push(3));
  // What was queued before close() is still handed out, then the end.
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_EQ(queue.pop(), std::nullopt);
}

TEST(BoundedQueue, PopForGivesUpAfterItsTimeout) {
  BoundedQueue<int> queue(1, QueueFullPolicy::Block);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(queue.pop_for(30ms), std::nullopt);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 25ms);
  EXPECT_LT(waited, 2s);
  queue.push(7);
  EXPECT_EQ(queue.pop_for(30ms), 7);
}

TEST(BoundedQueue, ClearMakesRoomForABlockedProducer) {
  BoundedQueue<int> queue(1, QueueFullPolicy::Block);
  queue.push(1);
  std::thread producer([&] { queue.push(2); });
  std::this_thread::sleep_for(20ms);
  queue.clear();
  producer.join();
  EXPECT_EQ(queue.try_pop(), 2);
}

TEST(BoundedQueue, CapacityBelowOneBecomesOne) {
  BoundedQueue<int> queue(0, QueueFullPolicy::DropOldest);
  EXPECT_EQ(queue.capacity(), 1u);
  queue.push(1);
  queue.push(2);
  EXPECT_EQ(queue.try_pop(), 2);
}

}  // namespace
}  // namespace sv
