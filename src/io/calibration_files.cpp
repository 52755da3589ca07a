#include "src/io/calibration_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "src/core/error.h"

namespace sv {
namespace {

std::string size_text(unsigned long long bytes) {
  if (bytes >= (1ull << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Closes the descriptor however the read ends.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) close(fd);
  }
};

// An upper bound on how deep brackets (YAML, JSON) or elements (XML) nest. Brackets count
// wherever they stand, in strings and comments too: a file that hides deep nesting from this
// scan must not reach the parser.
int nesting_depth(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  const bool xml = start != std::string::npos && text[start] == '<';
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (xml) {
      if (c != '<' || i + 1 == text.size()) continue;
      const char next = text[i + 1];
      if (next == '/') {
        depth = std::max(depth - 1, 0);
      } else if (std::isalpha(static_cast<unsigned char>(next)) || next == '_') {
        const size_t end = text.find('>', i);
        if (end == std::string::npos) break;
        if (text[end - 1] != '/') ++depth;  // <a/> opens nothing
        i = end;
      }
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      depth = std::max(depth - 1, 0);
    }
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

}  // namespace

std::string read_calibration_text(const std::string& path) {
  // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting.
  const FileDescriptor file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    const int error = errno;
    throw InputError("cannot read calibration '" + path + "': " +
                     (error == ENOENT ? std::string("no such file") : std::strerror(error)));
  }
  struct stat info {};
  if (fstat(file.fd, &info) != 0) {
    throw InputError("cannot read calibration '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    const char* kind = S_ISFIFO(info.st_mode)                             ? "a FIFO"
                       : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                       : S_ISSOCK(info.st_mode)                           ? "a socket"
                                                                          : "not a regular file";
    throw InputError("cannot read calibration '" + path + "': it is " + kind +
                     ", not a regular file");
  }
  const auto bytes = static_cast<unsigned long long>(info.st_size);
  if (bytes > kMaxCalibrationFileBytes) {
    throw InputError("calibration '" + path + "' is " + size_text(bytes) +
                     ": more than the " + size_text(kMaxCalibrationFileBytes) +
                     " a calibration file may have (they hold a few matrices)");
  }
  // One byte more than fstat said, to notice a file that grows while it is read.
  std::string text(bytes + 1, '\0');
  size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t got = read(file.fd, &text[filled], text.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError("cannot read calibration '" + path + "': " + std::strerror(errno));
    if (got == 0) break;
    filled += static_cast<size_t>(got);
  }
  if (filled > bytes) throw InputError("calibration '" + path + "' grew while being read");
  text.resize(filled);
  const int depth = nesting_depth(text);
  if (depth > kMaxCalibrationNesting) {
    throw InputError("calibration '" + path + "' nests " + std::to_string(depth) +
                     " levels deep (a calibration needs 3): not a calibration file");
  }
  return text;
}

}  // namespace sv
