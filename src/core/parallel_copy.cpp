#include "src/core/parallel_copy.h"

#include <algorithm>
#include <cstring>

#include "src/core/parallel_for.h"

namespace sv {
namespace {

constexpr size_t kBytesPerChunk = size_t{1} << 20;  // below 2 chunks a thread does not pay
constexpr int kMaxChunks = 4;                       // past a few threads the bus is full

}  // namespace

void parallel_copy(void* destination, const void* source, size_t bytes) {
  const int chunks = static_cast<int>(std::min<size_t>(kMaxChunks, bytes / kBytesPerChunk));
  if (chunks < 2) {
    std::memcpy(destination, source, bytes);
    return;
  }
  auto* out = static_cast<unsigned char*>(destination);
  const auto* in = static_cast<const unsigned char*>(source);
  parallel_for(0, chunks, [&](int i) {
    const size_t begin = bytes * i / chunks, end = bytes * (i + 1) / chunks;
    std::memcpy(out + begin, in + begin, end - begin);
  });
}

}  // namespace sv
