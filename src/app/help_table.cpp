#include "src/app/help_table.h"

#include "src/core/param_table.h"

#include <sstream>

namespace sv {
namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// Lines of at most `room` characters; a single word longer than that gets a line of its own.
std::vector<std::string> wrap_words(const std::string& text, size_t room) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : words_of(text)) {
    if (!line.empty() && line.size() + 1 + word.size() > room) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string format_help_rows(const std::vector<HelpRow>& rows, const HelpLayout& layout) {
  const size_t column = static_cast<size_t>(layout.text_column);
  const size_t room = static_cast<size_t>(layout.width) - column;
  const std::string indent(column, ' ');
  std::string out;
  for (const HelpRow& row : rows) {
    const std::string flags = "  " + row.flags;
    const std::vector<std::string> lines = wrap_words(row.text, room);
    // Two spaces at least between the flags and their description.
    const bool flags_fit = flags.size() + 2 <= column;
    if (!flags_fit || lines.empty()) out += flags + "\n";
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i == 0 && flags_fit) {
        out += flags + std::string(column - flags.size(), ' ') + lines[i] + "\n";
      } else {
        out += indent + lines[i] + "\n";
      }
    }
  }
  return out;
}

std::string wrap_paragraph(const std::string& text, const std::string& indent,
                           const HelpLayout& layout) {
  std::string out;
  for (const std::string& line : wrap_words(text, static_cast<size_t>(layout.width) - indent.size())) {
    out += indent + line + "\n";
  }
  return out;
}

std::vector<HelpRow> parameter_help_rows() {
  std::vector<HelpRow> rows;
  for (const ParamDescriptor& d : param_table()) {
    std::string text = d.help;
    if (d.kind == ParamKind::Choice) {
      text += " [";
      for (size_t i = 0; i < d.choices.size(); ++i) text += (i ? ", " : "") + d.choices[i];
      text += "]";
    }
    rows.push_back({"--" + d.key, text + " (default " + d.get(StereoParams{}) + ")"});
  }
  return rows;
}

}  // namespace sv
