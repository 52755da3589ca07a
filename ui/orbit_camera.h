#pragma once

// The 3D view's camera as pure math (no GL), so its matrices can be tested without a display.
// Coordinates: the cloud is in the stereo camera's frame (x right, y down, z forward, see
// src/core/point_cloud_math.h); the view's world turns that upright for GL (x right, y up,
// z towards the viewer): world = (x, -y, -z). The orbit camera circles a target point at a
// distance, at a yaw (about the world's up axis; 0 looks along -z, like the stereo camera) and a
// pitch (positive looks down from above, 90 degrees straight down).

#include <array>
#include <string>

namespace sv {

struct Vec3 {
  float x = 0.0f, y = 0.0f, z = 0.0f;
};

// Column-major, as glUniformMatrix4fv takes it without transposing: m[column * 4 + row].
struct Mat4 {
  std::array<float, 16> m{};
  static Mat4 identity();
};
Mat4 operator*(const Mat4& a, const Mat4& b);
// The point through `m` and the perspective divide: normalized device coordinates.
Vec3 project(const Mat4& m, const Vec3& p);

inline Vec3 world_from_camera(const Vec3& p) { return {p.x, -p.y, -p.z}; }
// The matrix of world_from_camera, the model matrix of every vertex of the cloud.
Mat4 world_from_camera_matrix();

// What the camera fits its views to: the depth range the cloud spans and the stereo camera's
// fields of view (radians), which also draw its frustum.
struct CloudScene {
  float near_z = 1.0f;
  float far_z = 10.0f;
  float fov_x = 1.0f;
  float fov_y = 0.8f;
  // False for a cloud in pixel units (no geometry): x and y do not shrink with depth there, so
  // the camera's own view of it is orthographic.
  bool pinhole = true;
};

// Camera: the stereo camera's own view (perspective, at its centre, with its field of view:
// the cloud looks like the image; orthographic for a cloud in pixel units, which then looks
// like the image too). Front, Top, Side: orthographic views of the whole depth
// range from behind the camera, from above, from the right.
enum class CloudViewPreset { Camera, Front, Top, Side };
const char* cloud_view_preset_name(CloudViewPreset preset);
CloudViewPreset parse_cloud_view_preset(const std::string& name);  // throws InputError

class OrbitCamera {
 public:
  OrbitCamera() { set_preset(CloudViewPreset::Camera, CloudScene{}); }

  void set_preset(CloudViewPreset preset, const CloudScene& scene);
  // A drag of (dx, dy) window pixels: turns about the target (right: the scene turns right,
  // down: it tips towards the viewer).
  void orbit(float dx, float dy);
  // Moves the target with the pointer, the scene following it in a cell of that size.
  void pan(float dx, float dy, float cell_width, float cell_height);
  // Mouse wheel steps: positive comes closer (in orthographic views, magnifies).
  void zoom(float steps);

  Mat4 view() const;
  Mat4 projection(float aspect) const;
  // projection(aspect) * view() * world_from_camera_matrix(): camera-frame points to clip space.
  Mat4 cloud_to_clip(float aspect) const;
  Vec3 eye() const;

  bool orthographic = false;
  float yaw = 0.0f;    // radians
  float pitch = 0.0f;  // radians, -pi/2..pi/2
  float distance = 5.0f;
  Vec3 target{0.0f, 0.0f, -5.0f};
  // Radians: the stereo camera's fields of view; a view shows at least both (perspective: its
  // field of view, orthographic: its extent at the target's distance).
  float fov_x = 1.0f;
  float fov_y = 0.8f;
  float scene_radius = 5.0f;  // clip planes and zoom limits

 private:
  void fit(const CloudScene& scene);
  // tan of half the vertical field of view (perspective) of a cell of `aspect` = w / h.
  float tan_half_height(float aspect) const;
};

}  // namespace sv
