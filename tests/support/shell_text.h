#pragma once

// Small helpers of the tests that run programs through the shell: quoting an argument, reading
// back what a program wrote.

#include <fstream>
#include <sstream>
#include <string>

namespace sv::test {

// `s` as one shell word, whatever it holds.
inline std::string shell_quote(const std::string& s) {
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The whole file; empty when it cannot be read.
inline std::string read_all(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace sv::test
