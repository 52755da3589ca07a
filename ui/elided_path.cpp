#include "ui/elided_path.h"

namespace sv {

std::string elided_path(const std::string& path, size_t max_chars) {
  const std::string dots = "...";
  if (path.size() <= max_chars) return path;
  if (max_chars <= dots.size()) return path.substr(path.size() - max_chars);
  const size_t kept = max_chars - dots.size();
  const size_t head = kept / 3;  // the end matters more: the file name
  return path.substr(0, head) + dots + path.substr(path.size() - (kept - head));
}

}  // namespace sv
