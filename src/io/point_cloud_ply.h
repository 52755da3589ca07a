#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/image.h"
#include "src/core/point_cloud_math.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// A coloured point cloud from a disparity map, through the rectified left camera: for every
// pixel (x, y) with a valid disparity d and d - disparity_offset > 0,
//   Z = f B / (d - disparity_offset),  X = (x - cx) Z / f,  Y = (y - cy) Z / f
// (x right, y down, z forward, units of the baseline), coloured by the left view's pixel.
// Written as binary little-endian PLY: float x, y, z; uchar red, green, blue per vertex, which
// MeshLab, CloudCompare and Open3D read. The file is written whole or not at all (a temporary
// file renamed, atomic_file.h). Returns the vertex count; RuntimeError naming the file when
// writing fails, InputError when the images differ in size.
int64_t write_point_cloud_ply(const std::string& path, const ImageF32& disparity,
                              const ImageRgb8& left, const StereoGeometry& geometry);

// The 3D view's cloud as it is shown: its visible vertices (alpha > 0), in their order and with
// their colours, in the same binary PLY layout; `units` goes into a comment ("metres", "pixels").
// Returns the vertex count; RuntimeError naming the file when writing fails.
int64_t write_cloud_vertices_ply(const std::string& path, const std::vector<CloudVertex>& vertices,
                                 const std::string& units);

// The pixels write_point_cloud_ply turns into vertices.
int64_t count_point_cloud_vertices(const ImageF32& disparity, const StereoGeometry& geometry);

// The synthetic scene's own cameras (src/core/synthetic_scene.cpp: f = 0.9 width, principal
// point at the image centre, baseline max_disparity / f, parallel cameras), so its disparities
// give the scene's true depths (the back wall at Z = 10).
StereoGeometry synthetic_scene_geometry(int width, int height, int max_disparity);

}  // namespace sv
