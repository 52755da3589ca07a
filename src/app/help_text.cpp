#include "src/app/help_text.h"

#include <sstream>
#include <vector>

#include "src/core/param_table.h"

namespace sv {
namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::string help_entry(const std::string& flag, const std::string& description) {
  const std::string indent(kHelpFlagColumn, ' ');
  std::string out = "  " + flag;
  std::string line;
  if (out.size() + 1 > static_cast<size_t>(kHelpFlagColumn)) {
    out += "\n";
    line = indent;
  } else {
    line = out + std::string(kHelpFlagColumn - out.size(), ' ');
    out.clear();
  }
  bool line_has_words = false;
  for (const std::string& word : words_of(description)) {
    if (line_has_words && line.size() + 1 + word.size() > static_cast<size_t>(kHelpWidth)) {
      out += line + "\n";
      line = indent;
      line_has_words = false;
    }
    line += (line_has_words ? " " : "") + word;
    line_has_words = true;
  }
  return out + line + "\n";
}

std::string parameter_help_text() {
  std::string out;
  for (const ParamDescriptor& d : param_table()) {
    std::string text = d.help;
    if (d.kind == ParamKind::Choice) {
      text += " [";
      for (size_t i = 0; i < d.choices.size(); ++i) text += (i ? ", " : "") + d.choices[i];
      text += "]";
    }
    text += " (default " + d.get(StereoParams{}) + ")";
    out += help_entry("--" + d.key, text);
  }
  return out;
}

}  // namespace sv
