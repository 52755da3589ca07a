#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/core/stereo_params.h"

namespace sv {

enum class ParamKind { Int, Float, Bool, Choice };

// One field of StereoParams, described once for every front end: the CLI flag (--key), the
// preset file line (key = value), and the viewer's widget and tooltip.
struct ParamDescriptor {
  std::string key;
  std::string help;
  ParamKind kind = ParamKind::Int;
  double min = 0.0;  // Int and Float: the widget range (validate() has the last word)
  double max = 0.0;
  std::vector<std::string> choices;  // Choice: the accepted values
  std::function<std::string(const StereoParams&)> get;
  std::function<void(StereoParams&, const std::string&)> set;  // throws InputError if unparsable
};

const std::vector<ParamDescriptor>& param_table();
const ParamDescriptor* find_param(const std::string& key);  // nullptr when unknown

// Sets one field from text; throws InputError naming the key and the bad value. Range checks
// are validate()'s job, so a preset can be loaded whole and then checked at once.
void set_param(StereoParams& params, const std::string& key, const std::string& value);

// Preset files: "key = value" lines, '#' comments, unknown keys are errors (a typo must not pass
// silently). to_preset_text writes every field, so a preset pins the whole configuration.
// load_preset_file takes a regular file of at most kMaxPresetFileBytes (a folder, FIFO or device
// is an InputError, input_file.h); save_preset_file refuses parameters validate() rejects, so a
// preset never holds a value (inf, nan, out of range) that cannot be loaded back.
constexpr uint64_t kMaxPresetFileBytes = uint64_t{1} << 20;
std::string to_preset_text(const StereoParams& params);
StereoParams parse_preset_text(const std::string& text, const StereoParams& defaults = {},
                               const std::string& origin = "preset");
StereoParams load_preset_file(const std::string& path, const StereoParams& defaults = {});
void save_preset_file(const std::string& path, const StereoParams& params);  // makes its folders

}  // namespace sv
