#include "src/python/matcher_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "src/core/parallel_for.h"
#include "src/core/param_table.h"
#include "src/core/stereo_engine.h"
#include "src/python/argument_checks.h"
#include "src/python/array_conversion.h"
#include "src/python/python_errors.h"
#include "src/python/shared_engine.h"

namespace py = pybind11;

namespace sv::python {
namespace {

// Python's value of a parameter as the text set_param() parses (True -> "true", 0.5 -> "0.5").
std::string parameter_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))
    return py::str(value).cast<std::string>();
  throw InputError("a parameter value must be a number, a bool or a string, not " +
                   py::str(py::type::of(value).attr("__name__")).cast<std::string>());
}

py::object typed_value(const ParamDescriptor& descriptor, const StereoParams& params) {
  const std::string text = descriptor.get(params);
  switch (descriptor.kind) {
    case ParamKind::Int: return py::int_(std::stoll(text));
    case ParamKind::Float: return py::float_(std::stod(text));
    case ParamKind::Bool: return py::bool_(text == "true");
    case ParamKind::Choice: break;
  }
  return py::str(text);
}

const ParamDescriptor& descriptor_of(const std::string& key) {
  const ParamDescriptor* descriptor = find_param(key);
  if (!descriptor) throw InputError("unknown parameter \"" + key + "\"");
  return *descriptor;
}

// One engine (shared by the Python threads that use this Matcher: shared_engine.h) and its
// parameters. The parameters and the last timings are only touched with the GIL held.
class Matcher {
 public:
  explicit Matcher(const std::string& engine_kind) : engine_(engine_kind) {}

  // Each waits for a frame another thread is computing, so without the GIL.
  std::string engine_name() const {
    py::gil_scoped_release release;
    return engine_.name();
  }
  std::string notices() const {
    py::gil_scoped_release release;
    return engine_.notices();
  }

  py::object get(const std::string& key) const { return typed_value(descriptor_of(key), params_); }

  // All of `values` at once, checked together: on any error nothing changes.
  void set_many(const py::dict& values) {
    StereoParams changed = params_;
    for (const auto& item : values)
      set_param(changed, item.first.cast<std::string>(), parameter_text(item.second));
    require_valid(changed);
    params_ = changed;
  }

  py::dict params() const {
    py::dict all;
    for (const ParamDescriptor& descriptor : param_table())
      all[py::str(descriptor.key)] = typed_value(descriptor, params_);
    return all;
  }

  void load_preset(const py::object& path_object) {
    const std::string path = path_argument(path_object, "the preset path");
    params_ = with_file_errors(path, [&] { return load_preset_file(path, params_); });
  }

  void save_preset(const py::object& path_object) const {
    const std::string path = path_argument(path_object, "the preset path");
    try {
      save_preset_file(path, params_);
    } catch (const RuntimeError& error) {
      PyErr_SetString(PyExc_OSError, error.what());
      throw py::error_already_set();
    }
  }

  std::string preset_text() const { return to_preset_text(params_); }

  // Queues a frame; returns its ticket for collect().
  uint64_t submit(const py::object& left, const py::object& right, bool fixed, bool confidence) {
    const Frame frame = prepare(left, right, fixed, confidence);
    py::gil_scoped_release release;
    return engine_.submit(frame.request);
  }

  // The frame of `ticket`: a disparity array (float32 px with NaN, or int16 1/16 px with fixed),
  // and the confidence when it was asked for and computed (None otherwise).
  py::tuple collect(uint64_t ticket, bool fixed) {
    DisparityResult result;
    {
      py::gil_scoped_release release;
      result = engine_.collect(ticket);
    }
    return to_python(result, fixed);
  }

  // One frame, submitted and collected as one step.
  py::tuple compute(const py::object& left, const py::object& right, bool fixed, bool confidence) {
    const Frame frame = prepare(left, right, fixed, confidence);
    DisparityResult result;
    {
      py::gil_scoped_release release;
      result = engine_.compute(frame.request);
    }
    return to_python(result, fixed);
  }

  py::dict timings() const {
    py::dict stages;
    for (const StageTiming& stage : timings_.stages)
      stages[py::str(stage.stage)] = stage.milliseconds;
    return stages;
  }

 private:
  // A request and the copied pair it borrows.
  struct Frame {
    std::unique_ptr<HostPairImages> pair;
    FrameRequest request;
  };

  // Checks the arrays and whether the frame fits before copying them (with the GIL).
  Frame prepare(const py::object& left_object, const py::object& right_object, bool fixed,
                bool confidence) {
    const py::array left = array_argument(left_object, "the left image");
    const py::array right = array_argument(right_object, "the right image");
    const PairLayout layout = checked_pair_layout(left, right);
    Frame frame;
    frame.request.params = params_;
    frame.request.params.confidence = params_.confidence || confidence;
    frame.request.want = ResultParts{fixed, !fixed, confidence, false, false, std::nullopt};
    {
      py::gil_scoped_release release;
      engine_.require_frame_fits(layout.width, layout.height, frame.request.params);
    }
    frame.pair = std::make_unique<HostPairImages>(left, right, layout);
    frame.request.pair = frame.pair->view();
    return frame;
  }

  py::tuple to_python(const DisparityResult& result, bool fixed) {
    timings_ = result.timings;
    py::object disparity = fixed ? py::object(fixed_image_to_array(result.disparity_fixed))
                                 : py::object(disparity_to_array(result.disparity));
    py::object confidence = result.confidence.empty()
                                ? py::object(py::none())
                                : py::object(float_image_to_array(result.confidence));
    return py::make_tuple(disparity, confidence);
  }

  SharedEngine engine_;
  StereoParams params_;
  StageTimings timings_;  // the last collected frame's
};

}  // namespace

void bind_matcher(py::module_& module) {
  py::class_<Matcher>(module, "_Matcher")
      .def(py::init<const std::string&>(), py::arg("engine"))
      .def_property_readonly("engine", &Matcher::engine_name)
      .def_property_readonly("notices", &Matcher::notices)
      .def("get", &Matcher::get, py::arg("key"))
      .def("set_many", &Matcher::set_many, py::arg("values"))
      .def("params", &Matcher::params)
      .def("load_preset", &Matcher::load_preset, py::arg("path"))
      .def("save_preset", &Matcher::save_preset, py::arg("path"))
      .def("preset_text", &Matcher::preset_text)
      .def("submit", &Matcher::submit, py::arg("left"), py::arg("right"), py::arg("fixed"),
           py::arg("confidence"))
      .def("collect", &Matcher::collect, py::arg("ticket"), py::arg("fixed"))
      .def("compute", &Matcher::compute, py::arg("left"), py::arg("right"), py::arg("fixed"),
           py::arg("confidence"))
      .def("timings", &Matcher::timings);
  module.def("parameter_keys", [] {
    py::list keys;
    for (const ParamDescriptor& descriptor : param_table()) keys.append(descriptor.key);
    return keys;
  });
  // The CPU engines' threads in this process (0: one per core). Batch workers sharing a machine
  // take one each, so that N workers are N cores rather than N times every core.
  module.def("set_cpu_threads", [](int count) {
    if (count < 0) throw InputError("set_cpu_threads: a count >= 0, got " + std::to_string(count));
    set_worker_count(count);
  }, py::arg("count"));
  module.def("cpu_threads", [] { return worker_count(); });
}

}  // namespace sv::python
