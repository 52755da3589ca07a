// The 3D view's camera (ui/orbit_camera.h): the camera preset shows the cloud as the image shows
// it, the preset views look along the axes they name (the top view of a plane is a line),
// and orbit, pan and zoom move the view as the mouse does.
#include "ui/orbit_camera.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/core/error.h"

namespace sv {
namespace {

// A 640x480 camera with f = 500 px, the cloud between 2 and 10 m.
constexpr float kFocal = 500.0f, kW = 640.0f, kH = 480.0f;
CloudScene scene() {
  CloudScene s;
  s.near_z = 2.0f;
  s.far_z = 10.0f;
  s.fov_x = 2.0f * std::atan(0.5f * kW / kFocal);
  s.fov_y = 2.0f * std::atan(0.5f * kH / kFocal);
  return s;
}

bool inside(const Vec3& ndc) {
  return std::abs(ndc.x) <= 1.0f && std::abs(ndc.y) <= 1.0f && std::abs(ndc.z) <= 1.0f;
}

// The camera preset puts each pixel's point where the pixel is in the image: ndc x = (x - cx)
// / (w / 2), ndc y = -(y - cy) / (h / 2) (GL's y points up, the image's down).
TEST(OrbitCamera, CameraPresetShowsTheCloudAsTheImage) {
  OrbitCamera camera;
  camera.set_preset(CloudViewPreset::Camera, scene());
  EXPECT_FALSE(camera.orthographic);
  const Vec3 eye = camera.eye();
  EXPECT_NEAR(eye.x, 0.0f, 1e-5);
  EXPECT_NEAR(eye.y, 0.0f, 1e-5);
  EXPECT_NEAR(eye.z, 0.0f, 1e-5);
  const Mat4 m = camera.cloud_to_clip(kW / kH);
  for (const auto& [x, y, z] : {std::array<float, 3>{100.0f, 50.0f, 3.0f},
                                std::array<float, 3>{600.0f, 400.0f, 9.0f},
                                std::array<float, 3>{320.0f, 240.0f, 5.0f}}) {
    // The point of pixel (x, y) at depth z, about the image centre.
    const Vec3 p{(x - 320.0f) * z / kFocal, (y - 240.0f) * z / kFocal, z};
    const Vec3 ndc = project(m, p);
    EXPECT_NEAR(ndc.x, (x - 320.0f) / 320.0f, 1e-4) << x << "," << y;
    EXPECT_NEAR(ndc.y, -(y - 240.0f) / 240.0f, 1e-4) << x << "," << y;
    EXPECT_TRUE(inside(ndc));
  }
  // Nearer points are nearer in the depth buffer.
  EXPECT_LT(project(m, Vec3{0, 0, 3}).z, project(m, Vec3{0, 0, 8}).z);
}

// A wall (a plane of constant depth, like the synthetic scene's back wall) seen from the top is
// one line across the view; from the front it fills an area. The floor (constant y) from the
// side is a line; a plane of constant x from the front is a line.
TEST(OrbitCamera, TopViewOfAPlaneIsALine) {
  OrbitCamera camera;
  std::vector<Vec3> wall, floor, side_plane;
  for (int i = 0; i <= 10; ++i) {
    for (int j = 0; j <= 10; ++j) {
      const float u = -3.0f + 0.6f * i, v = -2.0f + 0.4f * j;
      wall.push_back({u, v, 8.0f});
      floor.push_back({u, 1.5f, 2.0f + 0.7f * j});
      side_plane.push_back({-1.0f, v, 2.0f + 0.7f * i});
    }
  }
  auto spread = [](const std::vector<Vec3>& points, const Mat4& m, float Vec3::*axis) {
    float lo = 1e9f, hi = -1e9f;
    for (const Vec3& p : points) {
      const Vec3 ndc = project(m, p);
      lo = std::min(lo, ndc.*axis);
      hi = std::max(hi, ndc.*axis);
    }
    return hi - lo;
  };
  camera.set_preset(CloudViewPreset::Top, scene());
  EXPECT_TRUE(camera.orthographic);
  Mat4 m = camera.cloud_to_clip(1.5f);
  EXPECT_LT(spread(wall, m, &Vec3::y), 1e-5f);  // a horizontal line
  EXPECT_GT(spread(wall, m, &Vec3::x), 0.2f);
  // Far is up the screen, near down; the wall at 8 m above the floor's near end.
  EXPECT_GT(project(m, Vec3{0, 0, 8}).y, project(m, Vec3{0, 0, 2}).y);
  EXPECT_GT(spread(floor, m, &Vec3::y), 0.2f);  // the floor is an area from above

  camera.set_preset(CloudViewPreset::Side, scene());
  m = camera.cloud_to_clip(1.5f);
  EXPECT_LT(spread(floor, m, &Vec3::y), 1e-5f);  // the floor is a line from the side
  EXPECT_LT(spread(wall, m, &Vec3::x), 1e-5f);   // and the wall a vertical line
  EXPECT_GT(spread(wall, m, &Vec3::y), 0.2f);
  // Up stays up: the point above (smaller camera y) is higher on screen.
  EXPECT_GT(project(m, Vec3{0, -1, 5}).y, project(m, Vec3{0, 1, 5}).y);

  camera.set_preset(CloudViewPreset::Front, scene());
  m = camera.cloud_to_clip(1.5f);
  EXPECT_LT(spread(side_plane, m, &Vec3::x), 1e-5f);
  EXPECT_GT(spread(wall, m, &Vec3::x), 0.2f);
  EXPECT_GT(spread(wall, m, &Vec3::y), 0.2f);
  // Every preset shows the whole scene: the frustum's far corners are inside the view.
  for (CloudViewPreset p : {CloudViewPreset::Front, CloudViewPreset::Top, CloudViewPreset::Side}) {
    camera.set_preset(p, scene());
    m = camera.cloud_to_clip(kW / kH);
    for (const Vec3& corner : {Vec3{-6.4f, -4.8f, 10.0f}, Vec3{6.4f, 4.8f, 10.0f},
                               Vec3{0.0f, 0.0f, 2.0f}}) {
      EXPECT_TRUE(inside(project(m, corner))) << cloud_view_preset_name(p);
    }
  }
}

TEST(OrbitCamera, OrbitPanAndZoomFollowTheMouse) {
  OrbitCamera camera;
  camera.set_preset(CloudViewPreset::Front, scene());
  // Dragging right turns the scene like a turntable: its near side moves right, its right side
  // away from the viewer.
  const Vec3 near_point{0.0f, 0.0f, 3.0f}, right_point{2.0f, 0.0f, 6.0f};
  const Vec3 near_before = project(camera.cloud_to_clip(1.0f), near_point);
  const Vec3 right_before = project(camera.cloud_to_clip(1.0f), right_point);
  camera.orbit(100.0f, 0.0f);
  EXPECT_GT(project(camera.cloud_to_clip(1.0f), near_point).x, near_before.x + 0.05f);
  EXPECT_GT(project(camera.cloud_to_clip(1.0f), right_point).z, right_before.z);
  // Dragging down tips the top of the scene towards the viewer: seen more from above.
  camera.orbit(-100.0f, 50.0f);
  EXPECT_GT(camera.pitch, 0.0f);
  // The pitch stops at straight down and straight up.
  camera.orbit(0.0f, 1e5f);
  EXPECT_NEAR(camera.pitch, 1.5707963f, 1e-5);
  camera.orbit(0.0f, -1e5f);
  EXPECT_NEAR(camera.pitch, -1.5707963f, 1e-5);

  // Panning moves the scene with the pointer by as many pixels.
  camera.set_preset(CloudViewPreset::Front, scene());
  const Vec3 centre{0.0f, 0.0f, 6.0f};
  const Vec3 a = project(camera.cloud_to_clip(1.0f), centre);
  camera.pan(50.0f, 20.0f, 400.0f, 400.0f);
  const Vec3 b = project(camera.cloud_to_clip(1.0f), centre);
  EXPECT_NEAR((b.x - a.x) * 200.0f, 50.0f, 1e-2);   // 400 px high, aspect 1: 200 px per ndc unit
  EXPECT_NEAR((b.y - a.y) * 200.0f, -20.0f, 1e-2);  // down in the window is -y in ndc

  // A cell narrower than the image still shows all of it (the view widens, not crops).
  camera.set_preset(CloudViewPreset::Camera, scene());
  const Vec3 right_edge{(640.0f - 320.0f) * 5.0f / kFocal, 0.0f, 5.0f};  // the image's right edge
  EXPECT_NEAR(project(camera.cloud_to_clip(0.5f), right_edge).x, 1.0f, 1e-3);

  // Zooming in magnifies.
  camera.set_preset(CloudViewPreset::Camera, scene());
  const Vec3 off_axis{1.0f, 0.0f, 6.0f};
  const float x0 = project(camera.cloud_to_clip(1.0f), off_axis).x;
  camera.zoom(3.0f);
  EXPECT_GT(project(camera.cloud_to_clip(1.0f), off_axis).x, x0);
}

// In pixel units (no geometry) x and y keep their pixel values at every depth: the camera's view
// is orthographic, and the image's columns and rows land where the image has them.
TEST(OrbitCamera, CameraPresetInPixelUnitsIsOrthographic) {
  CloudScene pixels = scene();
  pixels.pinhole = false;
  pixels.near_z = 1.0f;
  pixels.far_z = 64.0f;
  pixels.fov_x = 2.0f * std::atan(0.5f * kW / 32.5f);
  pixels.fov_y = 2.0f * std::atan(0.5f * kH / 32.5f);
  OrbitCamera camera;
  camera.set_preset(CloudViewPreset::Camera, pixels);
  EXPECT_TRUE(camera.orthographic);
  const Mat4 m = camera.cloud_to_clip(kW / kH);
  for (const float z : {2.0f, 30.0f, 60.0f}) {
    const Vec3 ndc = project(m, Vec3{160.0f, -120.0f, z});
    EXPECT_NEAR(ndc.x, 0.5f, 1e-4) << z;
    EXPECT_NEAR(ndc.y, 0.5f, 1e-4) << z;
  }
}

TEST(OrbitCamera, PresetNames) {
  for (CloudViewPreset p : {CloudViewPreset::Camera, CloudViewPreset::Front, CloudViewPreset::Top,
                            CloudViewPreset::Side}) {
    EXPECT_EQ(parse_cloud_view_preset(cloud_view_preset_name(p)), p);
  }
  EXPECT_THROW(parse_cloud_view_preset("bottom"), InputError);
}

}  // namespace
}  // namespace sv
