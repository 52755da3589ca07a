#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/io/notice_sink.h"

namespace sv {

// Collects the notices of a source that lives on another thread (the capture thread) for the
// GL thread to show. The sink keeps the collector's store alive, so a source may outlive it.
class NoticeCollector {
 public:
  NoticeCollector() : store_(std::make_shared<Store>()) {}

  NoticeSink sink() const {
    std::shared_ptr<Store> store = store_;
    return [store](const std::string& message) {
      std::lock_guard<std::mutex> lock(store->mutex);
      store->messages.push_back(message);
    };
  }

  // The notices since the last call, oldest first.
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(store_->mutex);
    std::vector<std::string> taken;
    taken.swap(store_->messages);
    return taken;
  }

 private:
  struct Store {
    std::mutex mutex;
    std::vector<std::string> messages;
  };
  std::shared_ptr<Store> store_;
};

}  // namespace sv
