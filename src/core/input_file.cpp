#include "src/core/input_file.h"

#include <filesystem>
#include <fstream>

#include "src/core/byte_count.h"
#include "src/core/error.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

// What a non-regular file is, for the message.
const char* kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a folder";
    case fs::file_type::fifo: return "a FIFO (named pipe)";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

[[noreturn]] void refuse(const std::string& path, const std::string& what, const std::string& why) {
  throw InputError("cannot read " + what + " '" + path + "': " + why);
}

}  // namespace

uint64_t require_regular_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) refuse(path, what, "no such file");
  if (ec) refuse(path, what, ec.message());
  if (status.type() != fs::file_type::regular) {
    refuse(path, what, std::string(kind_of(status.type())) + ", not a regular file");
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) refuse(path, what, ec.message());
  return size;
}

std::string read_small_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
  const uint64_t size = require_regular_file(path, what);
  if (size > max_bytes) {
    refuse(path, what, "it holds " + format_bytes(size) + ", more than the " +
                           format_bytes(max_bytes) + " such a file can have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, what, "permission denied or unreadable");
  // Read in chunks up to one byte past the limit: a file that grew since it was measured is
  // still caught, and a small file costs no more than its size.
  std::string bytes;
  char chunk[65536];
  while (bytes.size() <= max_bytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    bytes.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) refuse(path, what, "read error");
  if (bytes.size() > max_bytes) {
    refuse(path, what, "it holds more than the " + format_bytes(max_bytes) + " such a file can have");
  }
  return bytes;
}

}  // namespace sv
