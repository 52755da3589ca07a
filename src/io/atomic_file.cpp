#include "src/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/core/error.h"

namespace sv {
namespace {

// Writes all of it, through short writes and interrupted calls; false with errno set otherwise.
bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string atomic_write_temp_path(const std::string& path) { return path + ".tmp"; }

void write_file_atomically(const std::string& path, const void* data, size_t size) {
  const std::string temp = atomic_write_temp_path(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw RuntimeError("cannot write " + path + ": " + std::strerror(errno));
  // errno is read right after the call that failed, before the clean-up can change it.
  int error = 0;
  if (!write_all(fd, static_cast<const char*>(data), size)) error = errno;
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temp.c_str());
    throw RuntimeError("cannot write " + path + ": " + std::strerror(error));
  }
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  write_file_atomically(path, bytes.data(), bytes.size());
}

}  // namespace sv
