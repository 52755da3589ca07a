#pragma once

// What the 3D view draws besides the points, as line vertices in the cloud's frame (the stereo
// camera's: x right, y down, z forward), pairs making one segment each: a ground grid under the
// scene, the camera's axes and its frustum. Pure math, tested without a display.

#include <vector>

#include "src/core/point_cloud_vertices.h"
#include "ui/orbit_camera.h"

namespace sv {

// The scene the 3D view fits its camera and guides to: the depths of the disparities d_lo..d_hi
// (the colour range) and the stereo camera's fields of view from the projection's focal
// length (metric) or, in pixel units, the angles the image spans at the middle depth.
CloudScene cloud_scene_for(const CloudProjection& projection, int width, int height, float d_lo,
                           float d_hi);

struct CloudGuideOptions {
  bool grid = true;
  bool axes = true;
  bool frustum = true;
};

// The grid lies in the horizontal plane at the bottom of the view at the far depth
// (y = far_z tan(fov_y / 2)), below every point of the cloud, from the camera to the far depth
// and as wide as the view there, in lines every grid_step(); the axes start at the camera
// centre, 0.1 far_z long (x red, up green, z blue); the frustum joins the centre to the image's
// corners at the near depth.
std::vector<CloudVertex> cloud_guides(const CloudScene& scene, const CloudGuideOptions& options);

// The grid's spacing: 1, 2 or 5 times a power of ten, giving 5 to 25 lines over the far depth.
float grid_step(float far_z);

}  // namespace sv
