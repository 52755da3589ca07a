#pragma once

#include <string>

namespace sv {

// Both programs' --help texts lay flags out the same way: the flag in a fixed column, its
// description wrapped beside it. A flag longer than the column puts its description on the next
// line, so the two never run together.
constexpr int kHelpFlagColumn = 28;  // where descriptions start
constexpr int kHelpWidth = 100;      // no line of a help text is longer

// "  --flag ARG      description..." wrapped to kHelpWidth, each line ending in '\n'.
std::string help_entry(const std::string& flag, const std::string& description);

// Every parameter of the parameter table as help entries (its description, choices and default).
std::string parameter_help_text();

}  // namespace sv
