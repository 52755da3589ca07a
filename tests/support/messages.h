#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace sv {

// True when `problems` (a validate() result) holds exactly `text`.
inline bool has_message(const std::vector<std::string>& problems, const std::string& text) {
  return std::find(problems.begin(), problems.end(), text) != problems.end();
}

}  // namespace sv
