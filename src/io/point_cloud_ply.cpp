#include "src/io/point_cloud_ply.h"

#include <cstring>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/io/atomic_file.h"

namespace sv {
namespace {

bool makes_point(float d, const StereoGeometry& g) {
  return is_valid_disparity(d) && d - g.disparity_offset_px > 0.0;
}

void append_le(std::vector<char>& out, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

// Whole or not at all (a full disk leaves no half cloud): written beside and renamed.
void write_ply(const std::string& path, const std::string& comment, int64_t count,
               const std::vector<char>& body) {
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\ncomment " + comment + "\nelement vertex " +
      std::to_string(count) +
      "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
      "property uchar green\nproperty uchar blue\nend_header\n";
  bytes.append(body.data(), body.size());
  write_file_atomically(path, bytes);
}

}  // namespace

int64_t count_point_cloud_vertices(const ImageF32& disparity, const StereoGeometry& geometry) {
  int64_t count = 0;
  for (float d : disparity.pixels()) count += makes_point(d, geometry) ? 1 : 0;
  return count;
}

int64_t write_point_cloud_ply(const std::string& path, const ImageF32& disparity,
                              const ImageRgb8& left, const StereoGeometry& geometry) {
  if (!disparity.same_size(left)) {
    throw InputError("point cloud " + path + ": the disparity and the left view differ in size");
  }
  const int64_t count = count_point_cloud_vertices(disparity, geometry);
  std::vector<char> body;
  body.reserve(static_cast<size_t>(count) * 15);
  const double f = geometry.focal_length_px;
  for (int y = 0; y < disparity.height(); ++y) {
    for (int x = 0; x < disparity.width(); ++x) {
      const float d = disparity.at(x, y);
      if (!makes_point(d, geometry)) continue;
      const double z = f * geometry.baseline / (d - geometry.disparity_offset_px);
      append_le(body, static_cast<float>((x - geometry.principal_x) * z / f));
      append_le(body, static_cast<float>((y - geometry.principal_y) * z / f));
      append_le(body, static_cast<float>(z));
      const Rgb8 c = left.at(x, y);
      body.push_back(static_cast<char>(c.r));
      body.push_back(static_cast<char>(c.g));
      body.push_back(static_cast<char>(c.b));
    }
  }
  write_ply(path, "stereoview point cloud", count, body);
  return count;
}

int64_t write_cloud_vertices_ply(const std::string& path, const std::vector<CloudVertex>& vertices,
                                 const std::string& units) {
  std::vector<char> body;
  int64_t count = 0;
  for (const CloudVertex& v : vertices) {
    if (v.a == 0) continue;
    ++count;
    append_le(body, v.x);
    append_le(body, v.y);
    append_le(body, v.z);
    body.push_back(static_cast<char>(v.r));
    body.push_back(static_cast<char>(v.g));
    body.push_back(static_cast<char>(v.b));
  }
  write_ply(path, "stereoview 3D view, " + units + ", x right, y down, z forward", count, body);
  return count;
}

StereoGeometry synthetic_scene_geometry(int width, int height, int max_disparity) {
  StereoGeometry g;
  g.focal_length_px = 0.9 * width;
  g.baseline = max_disparity / g.focal_length_px;
  g.principal_x = (width - 1) * 0.5;
  g.principal_y = (height - 1) * 0.5;
  g.disparity_offset_px = 0.0;
  return g;
}

}  // namespace sv
