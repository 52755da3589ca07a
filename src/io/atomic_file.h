#pragma once

#include <cstddef>
#include <string>

namespace sv {

// Writes `size` bytes to `path` so that `path` is never seen half written: the bytes go to a
// temporary file beside it (PATH.tmp), are flushed to the disk (fsync), and only then renamed
// over `path`. A failed write, flush or close (a full disk, a file size limit) removes the
// temporary file and throws RuntimeError "cannot write PATH: <the failing call's reason>", so a
// file sequence holds only whole files and the message names the real cause.
void write_file_atomically(const std::string& path, const void* data, size_t size);
void write_file_atomically(const std::string& path, const std::string& bytes);

// The temporary name write_file_atomically uses for `path`.
std::string atomic_write_temp_path(const std::string& path);

}  // namespace sv
