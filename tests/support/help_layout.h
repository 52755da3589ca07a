#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "src/app/help_table.h"

namespace sv::test {

// The lines of a --help text that break its layout: longer than the layout's width, or a flag line
// ("  --...") whose flag runs into the description column instead of ending two spaces before it
// (or standing alone, with the description on the next lines).
inline std::vector<std::string> help_layout_problems(const std::string& help) {
  std::vector<std::string> problems;
  std::istringstream in(help);
  const HelpLayout layout;
  const size_t column = static_cast<size_t>(layout.text_column);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > static_cast<size_t>(layout.width)) {
      problems.push_back("longer than " + std::to_string(layout.width) + ": " + line);
    } else if (line.rfind("  -", 0) == 0 && line.size() > column) {
      const bool gap_before_column = line[column - 2] == ' ' && line[column - 1] == ' ';
      if (!gap_before_column || line[column] == ' ') problems.push_back("flag column overflow: " + line);
    }
  }
  return problems;
}

}  // namespace sv::test
