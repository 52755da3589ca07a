#pragma once

#include <cstddef>
#include <string>

namespace sv {

// `path` in at most `max_chars` characters for a field too narrow for it: the start and the end
// (the file name, which tells paths apart) with "..." for the middle, e.g.
// "/work/sha...2003/teddy/im2.png". Unchanged when it fits.
std::string elided_path(const std::string& path, size_t max_chars);

}  // namespace sv
