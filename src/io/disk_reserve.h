#pragma once

#include <cstdint>
#include <string>

namespace sv {

// Disk space held in a file of its own for something that must still be written when the disk
// is full (a recording's final sidecar). The space is allocated for real (posix_fallocate, not a
// sparse file), grown ahead of need, and given back just before the write that needs it.
class DiskReserve {
 public:
  explicit DiskReserve(std::string path) : path_(std::move(path)) {}
  ~DiskReserve() { remove(); }
  DiskReserve(const DiskReserve&) = delete;
  DiskReserve& operator=(const DiskReserve&) = delete;

  // Makes the reserve hold at least `bytes` (creating the file on first use). False when the
  // disk or a file size limit refuses; error() then says why ("No space left on device").
  bool grow_to(int64_t bytes);
  // Gives back all but `bytes` of it, for a write about to use the space.
  void shrink_to(int64_t bytes);
  // Gives everything back and deletes the file.
  void remove();

  int64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  int fd_ = -1;
  int64_t size_ = 0;
  std::string error_;
};

}  // namespace sv
