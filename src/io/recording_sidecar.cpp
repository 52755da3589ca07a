#include "src/io/recording_sidecar.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "src/core/error.h"
#include "src/core/param_table.h"

namespace sv {

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
      {"u16_decoding", "disparity_px = (value - u16_offset) / fixed_point_scale; value 0 = invalid"},
      {"colormap", s.colormap},
      {"color_range_px", {s.color_min, s.color_max}},
  };
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
  doc["dropped_frames"] = s.dropped_frames;
  doc["clamped_pixels"] = s.clamped_pixels;
  doc["complete"] = s.complete;
  doc["error"] = s.error;
  return doc.dump(2) + "\n";
}

void write_sidecar(const std::string& path, const RecordingSidecar& sidecar) {
  const std::string text = sidecar_json(sidecar);
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw RuntimeError("cannot write " + path + ": " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) {
      const int error = errno;
      out.close();
      std::remove(temp.c_str());
      throw RuntimeError("cannot write " + path + ": " + std::strerror(error));
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw RuntimeError("cannot write " + path + ": " + std::strerror(error));
  }
}

}  // namespace sv
