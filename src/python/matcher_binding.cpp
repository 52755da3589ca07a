#include "src/python/matcher_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <string>

#include "src/app/engine_factory.h"
#include "src/core/parallel_for.h"
#include "src/core/param_table.h"
#include "src/core/stereo_engine.h"
#include "src/python/array_conversion.h"
#include "src/python/python_errors.h"

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

class Matcher {
 public:
  explicit Matcher(const std::string& engine_kind) {
    if (engine_kind != "cpu" && engine_kind != "reference" && engine_kind != "cuda" &&
        engine_kind != "auto")
      throw InputError("--engine must be cpu, reference, cuda or auto, got \"" + engine_kind + "\"");
    std::ostringstream notices;
    engine_ = make_engine(engine_kind, notices);
    notices_ = notices.str();
  }

  std::string engine_name() const { return engine_->name(); }
  const std::string& notices() const { return notices_; }

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

  void load_preset(const std::string& path) {
    params_ = with_file_errors(path, [&] { return load_preset_file(path, params_); });
  }

  void save_preset(const std::string& path) const {
    try {
      save_preset_file(path, params_);
    } catch (const RuntimeError& error) {
      PyErr_SetString(PyExc_OSError, error.what());
      throw py::error_already_set();
    }
  }

  std::string preset_text() const { return to_preset_text(params_); }

  // Copies the pair (with the GIL) and queues it (without).
  void submit(const py::array& left, const py::array& right, bool fixed, bool confidence) {
    const HostPairImages pair(left, right);
    FrameRequest request;
    request.pair = pair.view();
    request.params = params_;
    request.params.confidence = request.params.confidence || confidence;
    request.want = ResultParts{fixed, !fixed, confidence, false, false, std::nullopt};
    py::gil_scoped_release release;
    engine_->submit(request);
  }

  // The oldest queued frame: a disparity array (float32 px with NaN, or int16 1/16 px with
  // fixed), and the confidence when it was asked for and computed (None otherwise).
  py::tuple collect(bool fixed) {
    {
      py::gil_scoped_release release;
      engine_->collect(result_);
    }
    py::object disparity = fixed ? py::object(fixed_image_to_array(result_.disparity_fixed))
                                 : py::object(disparity_to_array(result_.disparity));
    py::object confidence = result_.confidence.empty()
                                ? py::object(py::none())
                                : py::object(float_image_to_array(result_.confidence));
    return py::make_tuple(disparity, confidence);
  }

  int frames_in_flight() const { return engine_->frames_in_flight(); }

  py::dict timings() const {
    py::dict stages;
    for (const StageTiming& stage : result_.timings.stages)
      stages[py::str(stage.stage)] = stage.milliseconds;
    return stages;
  }

 private:
  std::unique_ptr<StereoEngine> engine_;
  std::string notices_;
  StereoParams params_;
  DisparityResult result_;  // the last frame's; its buffers are reused by the next collect
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
      .def("collect", &Matcher::collect, py::arg("fixed"))
      .def("frames_in_flight", &Matcher::frames_in_flight)
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
