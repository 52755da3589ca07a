#pragma once

#include <stdexcept>
#include <string>

namespace sv {

// Bad input from the user: invalid parameters, unreadable or mismatched files. The CLI maps it
// to exit code 2 only when it comes from the command line itself; elsewhere it is exit code 1.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure while running (I/O, device, resources).
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sv
