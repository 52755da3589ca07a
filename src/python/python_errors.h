#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// The core's errors as Python's: InputError (bad parameters, shapes, values) -> ValueError,
// a frame that cannot fit in memory (FrameDoesNotFitError) -> MemoryError, RuntimeError (the
// engine) -> RuntimeError, with the CLI's messages unchanged.
void register_error_translators();

// Runs `load`, turning an InputError about a file that cannot be read at all (missing, a
// folder, unreadable) into OSError; an InputError about its content stays a ValueError.
template <typename Load>
auto with_file_errors(const std::string& path, Load&& load) -> decltype(load());

bool is_readable_file(const std::string& path);

}  // namespace sv::python

#include "src/core/error.h"

namespace sv::python {

template <typename Load>
auto with_file_errors(const std::string& path, Load&& load) -> decltype(load()) {
  try {
    return load();
  } catch (const InputError& error) {
    if (!is_readable_file(path)) {
      PyErr_SetString(PyExc_OSError, error.what());
      throw pybind11::error_already_set();
    }
    throw;
  }
}

}  // namespace sv::python
