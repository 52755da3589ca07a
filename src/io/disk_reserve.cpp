#include "src/io/disk_reserve.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sv {

bool DiskReserve::grow_to(int64_t bytes) {
  if (bytes <= size_) return true;
  if (fd_ < 0) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      error_ = "cannot create " + path_ + ": " + std::strerror(errno);
      return false;
    }
  }
  // posix_fallocate returns its error instead of setting errno.
  const int error = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes));
  if (error != 0) {
    error_ = "cannot keep " + std::to_string(bytes) + " bytes for the sidecar in " + path_ + ": " +
             std::strerror(error);
    // A refused allocation can leave blocks past the old end on some file systems; the reserve
    // keeps its old size whether or not this gives them back.
    [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(size_));
    return false;
  }
  size_ = bytes;
  return true;
}

void DiskReserve::shrink_to(int64_t bytes) {
  if (fd_ < 0 || bytes >= size_) return;
  if (bytes < 0) bytes = 0;
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) == 0) size_ = bytes;
}

void DiskReserve::remove() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(path_.c_str());
  fd_ = -1;
  size_ = 0;
}

}  // namespace sv
