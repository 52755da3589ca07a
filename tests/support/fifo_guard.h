#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

namespace sv::test {

// A FIFO (named pipe) for tests of readers that must refuse one, made so that a reader that does
// not refuse it cannot hang the test: the guard holds the FIFO open for reading and writing, so
// opening it never blocks, and returns_within() closes that end once its time is up, so a reader
// blocked on it sees end-of-file and returns.
class FifoGuard {
 public:
  explicit FifoGuard(std::string path) : path_(std::move(path)) {
    unlink(path_.c_str());  // left by an interrupted run
    if (mkfifo(path_.c_str(), 0600) != 0) throw std::runtime_error("mkfifo " + path_ + " failed");
    fd_ = open(path_.c_str(), O_RDWR | O_NONBLOCK);
    if (fd_ < 0) throw std::runtime_error("cannot open FIFO " + path_);
  }
  ~FifoGuard() {
    close_write_end();
    unlink(path_.c_str());
  }
  FifoGuard(const FifoGuard&) = delete;
  FifoGuard& operator=(const FifoGuard&) = delete;

  const std::string& path() const { return path_; }

  // Runs `read` on its own thread; false when it had not returned after `seconds` (it returns
  // anyway, once the write end is closed). Exceptions of `read` are dropped: catch them in it.
  bool returns_within(double seconds, const std::function<void()>& read) {
    std::packaged_task<void()> task(read);
    std::future<void> done = task.get_future();
    std::thread thread(std::move(task));
    const bool in_time =
        done.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::ready;
    close_write_end();
    thread.join();
    return in_time;
  }

 private:
  void close_write_end() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  std::string path_;
  int fd_ = -1;
};

}  // namespace sv::test
