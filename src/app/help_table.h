#pragma once

#include <string>
#include <vector>

namespace sv {

// Both programs' --help texts (stereoview and stereoview-viewer) are laid out here, so a long
// flag can never run into its description in one of them again.

// One entry of a --help text: the flags as typed ("--window-size WxH") and what they do.
struct HelpRow {
  std::string flags;
  std::string text;
};

// The layout of a --help text: descriptions start at `text_column`, no line is longer than
// `width`. A flag part too long for its column gets a line of its own, with the description
// below it, so a flag never runs into its description.
struct HelpLayout {
  int text_column = 28;
  int width = 100;
};

// "  FLAGS" then the description from layout.text_column, wrapped at word boundaries onto
// lines indented to that column; one row after the other, each ending in '\n'.
std::string format_help_rows(const std::vector<HelpRow>& rows, const HelpLayout& layout = {});

// A paragraph wrapped at layout.width, each line starting with `indent`.
std::string wrap_paragraph(const std::string& text, const std::string& indent = "",
                           const HelpLayout& layout = {});

// Every parameter of the parameter table: its flag, description, choices and default.
std::vector<HelpRow> parameter_help_rows();

}  // namespace sv
