#include "src/python/argument_checks.h"

namespace py = pybind11;

namespace sv::python {
namespace {

[[noreturn]] void refuse(const py::handle& value, const std::string& what,
                         const std::string& expected) {
  const std::string type = py::str(py::type::handle_of(value).attr("__name__"));
  throw py::type_error(what + " must be " + expected + ", not " + type);
}

}  // namespace

py::array array_argument(const py::handle& value, const std::string& what) {
  if (!py::isinstance<py::array>(value)) refuse(value, what, "a NumPy array");
  return py::reinterpret_borrow<py::array>(value);
}

std::string path_argument(const py::handle& value, const std::string& what) {
  if (!py::isinstance<py::str>(value) && !py::hasattr(value, "__fspath__"))
    refuse(value, what, "a str or os.PathLike path");
  const py::object text = py::module_::import("os").attr("fspath")(value);
  if (!py::isinstance<py::str>(text)) refuse(text, what, "a str path");
  return text.cast<std::string>();
}

}  // namespace sv::python
