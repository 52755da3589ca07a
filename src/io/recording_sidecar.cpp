#include "src/io/recording_sidecar.h"

#include <csignal>
#include <nlohmann/json.hpp>

#include "src/core/param_table.h"
#include "src/io/atomic_file.h"

namespace sv {

std::string RecordingStop::text() const {
  switch (reason) {
    case Reason::EndOfSource:
      return "end of source";
    case Reason::FrameLimit:
      return "frame limit";
    case Reason::StoppedByUser:
      return "stopped by the user";
    case Reason::Interrupted:
      return signal == SIGINT    ? "interrupted by SIGINT"
             : signal == SIGTERM ? "interrupted by SIGTERM"
                                 : "interrupted by signal " + std::to_string(signal);
    case Reason::SourceError:
      return "source error";
    case Reason::ProcessingError:
      return "processing error";
    case Reason::RecordingError:
      return "recording error";
  }
  return "stopped by the user";
}

bool RecordingStop::clean() const {
  return reason != Reason::SourceError && reason != Reason::ProcessingError &&
         reason != Reason::RecordingError;
}

std::vector<std::pair<std::string, std::string>> changed_parameters(const StereoParams& before,
                                                                    const StereoParams& after) {
  std::vector<std::pair<std::string, std::string>> changes;
  for (const ParamDescriptor& d : param_table()) {
    std::string value = d.get(after);
    if (value != d.get(before)) changes.emplace_back(d.key, std::move(value));
  }
  return changes;
}

std::string sidecar_path_for(const std::string& recording_path) { return recording_path + ".json"; }

std::string sidecar_json(const RecordingSidecar& s) {
  using nlohmann::json;
  json parameters = json::object();
  for (const ParamDescriptor& d : param_table()) parameters[d.key] = d.get(s.params);

  json doc;
  doc["kind"] = "stereoview recording";
  doc["version"] = 1;
  doc["file"] = s.file;
  doc["format"] = recording_format_name(s.format);
  doc["codec"] = s.codec;
  doc["sample_depth"] = s.sample_depth;
  if (!s.replay.empty()) doc["replay"] = s.replay;
  doc["width"] = s.width;
  doc["height"] = s.height;
  doc["frames_per_second"] = s.frames_per_second;
  doc["source"] = s.source;
  doc["engine"] = s.engine;
  doc["algorithm"] = s.params.algorithm;
  doc["parameters"] = parameters;
  doc["preset"] = to_preset_text(s.params);
  doc["disparity"] = {
      {"unit", "px"},
      {"fixed_point_scale", kDisparityScale},
      {"u16_offset", s.u16_encoding.offset},
      {"u16_invalid", 0},
      {"u16_decoding",
       "disparity_px = (value - u16_offset) / fixed_point_scale; value 0 = invalid"},
      {"colormap", s.colormap},
      {"color_range_px", {s.color_min, s.color_max}},
  };
  if (s.difference_scale) {
    // The difference view recorded: what its samples mean in each format.
    doc["view"] = "difference";
    doc["difference"] = {
        {"scale_px", *s.difference_scale},
        {"colours",
         "as shown: black equal, dark red to yellow |A-B| from 0 to scale_px, cyan only A valid, "
         "orange only B valid, dark grey neither"},
        {"u16", "|A-B| in px by u16_decoding where both sides are valid; 0 where at most one is"},
        {"parameters", "A's; B's are the viewer's A/B settings"},
    };
  }
  if (s.geometry) {
    doc["calibration"] = {
        {"file", s.calibration_file},
        {"focal_length_px", s.geometry->focal_length_px},
        {"baseline", s.geometry->baseline},
        {"principal_point_px", {s.geometry->principal_x, s.geometry->principal_y}},
        {"disparity_offset_px", s.geometry->disparity_offset_px},
    };
  } else {
    doc["calibration"] = nullptr;
  }
  json frames = json::array();
  for (size_t i = 0; i < s.frames.size(); ++i) {
    frames.push_back({{"file_index", i},
                      {"source_index", s.frames[i].source_index},
                      {"timestamp_s", s.frames[i].timestamp_s}});
  }
  doc["frame_count"] = s.frames.size();
  doc["frames"] = std::move(frames);
  json changes = json::array();
  for (const RecordingSidecar::ParameterChange& change : s.parameter_changes) {
    json values = json::object();
    for (const auto& [key, value] : change.values) values[key] = value;
    json entry = {{"file_index", change.file_index},
                  {"source_index", change.source_index},
                  {"parameters", std::move(values)}};
    if (!change.engine.empty()) entry["engine"] = change.engine;
    changes.push_back(std::move(entry));
  }
  doc["parameter_changes"] = std::move(changes);
  doc["dropped_frames"] = s.dropped_frames;
  doc["clamped_pixels"] = s.clamped_pixels;
  // "finished": the program closed the file; false in the sidecar a running recording keeps up
  // to date, so a killed process leaves it false. "complete": finished without an error.
  doc["finished"] = s.stop.has_value();
  doc["stop_reason"] = s.stop ? json(s.stop->text()) : json(nullptr);
  doc["complete"] = s.stop && s.stop->clean();
  doc["error"] = s.stop ? s.stop->message : "";
  return doc.dump(2) + "\n";
}

void write_sidecar(const std::string& path, const RecordingSidecar& sidecar) {
  write_file_atomically(path, sidecar_json(sidecar));
}

}  // namespace sv
