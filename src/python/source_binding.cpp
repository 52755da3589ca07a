#include "src/python/source_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/app/source_factory.h"
#include "src/python/argument_checks.h"
#include "src/python/array_conversion.h"
#include "src/python/python_errors.h"

namespace py = pybind11;

namespace sv::python {
namespace {

// BGR, as OpenCV and Matcher.compute take colour images.
py::array_t<uint8_t> bgr_array(const ImageRgb8& image) {
  py::array_t<uint8_t> array({image.height(), image.width(), 3});
  uint8_t* bgr = array.mutable_data();
  for (size_t i = 0; i < image.size(); ++i) {
    bgr[3 * i] = image.data()[i].b;
    bgr[3 * i + 1] = image.data()[i].g;
    bgr[3 * i + 2] = image.data()[i].r;
  }
  return array;
}

py::array_t<uint16_t> u16_array(const ImageU16& image) {
  py::array_t<uint16_t> array({image.height(), image.width()});
  std::memcpy(array.mutable_data(), image.data(), image.size() * sizeof(uint16_t));
  return array;
}

// A keyword's value as the flag's text: a path, a number or a string.
std::string flag_value(const py::handle& value, const std::string& flag) {
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))
    return py::str(value).cast<std::string>();
  return path_argument(value, "the value of " + flag + "=");
}

// Keyword arguments as the CLI's flags: left="a.png" -> --left a.png, swap_views=True ->
// --swap-views (False leaves it out), numbers as their text.
std::vector<std::string> source_flags(const py::kwargs& keywords) {
  std::vector<std::string> flags;
  for (const auto& item : keywords) {
    const std::string keyword = item.first.cast<std::string>();
    std::string name = keyword;
    for (char& c : name)
      if (c == '_') c = '-';
    if (py::isinstance<py::bool_>(item.second)) {
      if (item.second.cast<bool>()) flags.push_back("--" + name);
      continue;
    }
    flags.push_back("--" + name);
    flags.push_back(flag_value(item.second, keyword));
  }
  return flags;
}

// A source that cannot open because a file or folder it names is not there is an OSError, as
// Python's open() would raise; every other InputError stays a ValueError.
void raise_os_error_for_missing_path(const InputError& error, const std::vector<std::string>& flags) {
  const std::string message = error.what();
  for (const std::string& value : flags) {
    if (value.rfind("--", 0) == 0 || message.find(value) == std::string::npos) continue;
    std::error_code ignored;
    if (!std::filesystem::exists(value, ignored) || !is_readable_file(value)) {
      if (std::filesystem::is_directory(value, ignored)) continue;
      PyErr_SetString(PyExc_OSError, message.c_str());
      throw py::error_already_set();
    }
  }
}

// A frame source that several Python threads may iterate: next() is serialised (a decoder
// is not safe to enter twice at once), each pair going to exactly one caller. A thread waits
// for the source's lock without the GIL.
class Source {
 public:
  explicit Source(const py::kwargs& keywords) {
    const std::vector<std::string> flags = source_flags(keywords);
    const CliOptions options = parse_source_flags(flags);
    auto notices = notices_;
    try {
      source_ = make_frame_source(options, [notices](const std::string& line) {
        notices->push_back(line);
      });
    } catch (const InputError& error) {
      raise_os_error_for_missing_path(error, flags);
      throw;
    }
  }

  // (left, right, info): the rectified views as BGR uint8 arrays, or a 16-bit / float source's
  // full-depth gray planes (uint16 / float32); info holds index, timestamp_s and the 8-bit
  // BGR views of a full-depth pair as left_bgr / right_bgr.
  py::tuple next() {
    std::optional<StereoPair> pair = locked([&] { return source_->next(); });
    if (!pair) throw py::stop_iteration();
    py::dict info;
    info["index"] = pair->index;
    info["timestamp_s"] = pair->timestamp_s;
    if (!pair->leftf.empty()) {
      info["left_bgr"] = bgr_array(pair->left);
      info["right_bgr"] = bgr_array(pair->right);
      return py::make_tuple(float_image_to_array(pair->leftf), float_image_to_array(pair->rightf),
                            info);
    }
    if (!pair->left16.empty()) {
      info["left_bgr"] = bgr_array(pair->left);
      info["right_bgr"] = bgr_array(pair->right);
      return py::make_tuple(u16_array(pair->left16), u16_array(pair->right16), info);
    }
    return py::make_tuple(bgr_array(pair->left), bgr_array(pair->right), info);
  }

  std::string describe() { return locked([&] { return source_->describe(); }); }
  bool is_live() { return locked([&] { return source_->is_live(); }); }
  int64_t frame_count() { return locked([&] { return source_->frame_count(); }); }
  // The next pair delivered is `index` (batch chunks start mid-file); false when the source
  // cannot seek there.
  bool seek(int64_t index) { return locked([&] { return source_->seek(index); }); }
  double frames_per_second() { return locked([&] { return source_->frames_per_second(); }); }
  // The source adds notices while it reads (under the lock).
  std::vector<std::string> notices() { return locked([&] { return *notices_; }); }

 private:
  // `read` under the source's lock, waited for (and run) without the GIL.
  template <typename Read>
  auto locked(Read&& read) -> decltype(read()) {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex_);
    return read();
  }

  std::mutex mutex_;
  std::shared_ptr<std::vector<std::string>> notices_ = std::make_shared<std::vector<std::string>>();
  std::unique_ptr<FrameSource> source_;
};

}  // namespace

void bind_source(py::module_& module) {
  py::class_<Source>(module, "Source")
      .def("__iter__", [](Source& source) -> Source& { return source; })
      .def("__next__", &Source::next)
      .def("__len__",
           [](Source& source) {
             if (source.frame_count() < 0) throw py::type_error("this source has no length");
             return source.frame_count();
           })
      .def("seek", &Source::seek, py::arg("index"))
      .def_property_readonly("description", &Source::describe)
      .def_property_readonly("is_live", &Source::is_live)
      .def_property_readonly("frame_count", &Source::frame_count)
      .def_property_readonly("frames_per_second", &Source::frames_per_second)
      .def_property_readonly("notices", &Source::notices);
  module.def("open_source",
             [](const py::kwargs& keywords) { return std::make_unique<Source>(keywords); });
}

}  // namespace sv::python
