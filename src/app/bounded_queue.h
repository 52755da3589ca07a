#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace sv {

// What push() does when the queue is full (shared/ARCHITECTURE.md): a live camera keeps only the
// newest pairs, so the oldest is dropped (and counted); a file must never lose a frame, so the
// producer waits until the consumer makes room.
enum class QueueFullPolicy { DropOldest, Block };

// A bounded multi-producer, multi-consumer queue of owned items between two threads. close()
// ends it for good: waiting producers and consumers wake up, push() refuses new items, and pop()
// hands out what is left before reporting the end. Nothing in it can wait forever once closed.
template <typename T>
class BoundedQueue {
 public:
  BoundedQueue(size_t capacity, QueueFullPolicy policy)
      : capacity_(capacity < 1 ? 1 : capacity), policy_(policy) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  // False when the queue is closed (the item is discarded). Under Block it waits for room.
  bool push(T item) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (policy_ == QueueFullPolicy::Block) {
      not_full_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    }
    if (closed_) return false;
    if (items_.size() >= capacity_) {
      items_.pop_front();
      ++dropped_;
    }
    items_.push_back(std::move(item));
    lock.unlock();
    not_empty_.notify_one();
    return true;
  }

  // Waits for an item; nullopt once the queue is closed and empty.
  std::optional<T> pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
    return take_front(lock);
  }

  // Like pop(), but gives up after `timeout` (nullopt), so a consumer can also watch other events.
  template <typename Rep, typename Period>
  std::optional<T> pop_for(std::chrono::duration<Rep, Period> timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait_for(lock, timeout, [&] { return closed_ || !items_.empty(); });
    return take_front(lock);
  }

  std::optional<T> try_pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    return take_front(lock);
  }

  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  // Throws away every queued item (e.g. stale pairs after a seek); producers may push again.
  void clear() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      items_.clear();
    }
    not_full_.notify_all();
  }

  bool closed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  size_t capacity() const { return capacity_; }
  QueueFullPolicy policy() const { return policy_; }
  // Items thrown away by DropOldest since construction: shown in the UI, never silent.
  uint64_t dropped() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return dropped_;
  }

 private:
  std::optional<T> take_front(std::unique_lock<std::mutex>& lock) {
    if (items_.empty()) return std::nullopt;
    std::optional<T> item(std::move(items_.front()));
    items_.pop_front();
    lock.unlock();
    not_full_.notify_one();
    return item;
  }

  const size_t capacity_;
  const QueueFullPolicy policy_;
  mutable std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<T> items_;
  bool closed_ = false;
  uint64_t dropped_ = 0;
};

}  // namespace sv
