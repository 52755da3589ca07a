#include "src/python/python_errors.h"

#include <fstream>
#include <filesystem>

#include "src/core/frame_budget.h"

namespace sv::python {

void register_error_translators() {
  pybind11::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const FrameDoesNotFitError& error) {
      PyErr_SetString(PyExc_MemoryError, error.what());
    } catch (const InputError& error) {
      PyErr_SetString(PyExc_ValueError, error.what());
    } catch (const RuntimeError& error) {
      PyErr_SetString(PyExc_RuntimeError, error.what());
    }
  });
}

bool is_readable_file(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(path, ignored)) return false;
  return std::ifstream(path).good();
}

}  // namespace sv::python
