#pragma once

#include <string>

namespace sv {

// What `--version` prints for `program` ("stereoview 0.1.0"): the project's version
// (CMakeLists.txt), the same for every program it builds.
std::string version_line(const std::string& program);

}  // namespace sv
