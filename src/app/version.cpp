#include "src/app/version.h"

namespace sv {

std::string version_line(const std::string& program) { return program + " " + STEREOVIEW_VERSION; }

}  // namespace sv
