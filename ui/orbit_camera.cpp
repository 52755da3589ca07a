#include "ui/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include "src/core/error.h"

namespace sv {
namespace {

constexpr float kHalfPi = 1.57079632679f;
constexpr float kRadiansPerPixel = 0.008f;

Vec3 add(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 scale(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// The camera's axes in the world: towards the viewer (`back`), right and up, from yaw and pitch.
// Up is the derivative of `back` along the pitch, so it stays defined looking straight down.
struct Axes {
  Vec3 right, up, back;
};
Axes axes(float yaw, float pitch) {
  Axes a;
  a.back = {std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
  a.right = {std::cos(yaw), 0.0f, -std::sin(yaw)};
  a.up = cross(a.back, a.right);
  return a;
}

}  // namespace

Mat4 Mat4::identity() {
  Mat4 r;
  r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
  return r;
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a.m[k * 4 + row] * b.m[c * 4 + k];
      r.m[c * 4 + row] = sum;
    }
  }
  return r;
}

Vec3 project(const Mat4& m, const Vec3& p) {
  float out[4];
  for (int row = 0; row < 4; ++row) {
    out[row] = m.m[row] * p.x + m.m[4 + row] * p.y + m.m[8 + row] * p.z + m.m[12 + row];
  }
  return {out[0] / out[3], out[1] / out[3], out[2] / out[3]};
}

Mat4 world_from_camera_matrix() {
  Mat4 r = Mat4::identity();
  r.m[5] = -1.0f;
  r.m[10] = -1.0f;
  return r;
}

const char* cloud_view_preset_name(CloudViewPreset preset) {
  switch (preset) {
    case CloudViewPreset::Camera: return "camera";
    case CloudViewPreset::Front: return "front";
    case CloudViewPreset::Top: return "top";
    case CloudViewPreset::Side: return "side";
  }
  return "?";
}

CloudViewPreset parse_cloud_view_preset(const std::string& name) {
  for (CloudViewPreset p : {CloudViewPreset::Camera, CloudViewPreset::Front, CloudViewPreset::Top,
                            CloudViewPreset::Side}) {
    if (name == cloud_view_preset_name(p)) return p;
  }
  throw InputError("unknown 3D view \"" + name + "\" (camera, front, top, side)");
}

void OrbitCamera::fit(const CloudScene& scene) {
  const float near_z = std::max(scene.near_z, 1e-6f);
  const float far_z = std::max(scene.far_z, near_z * 1.001f);
  const float mid = 0.5f * (near_z + far_z);
  target = {0.0f, 0.0f, -mid};
  // Half the largest extent: the depth range, or the frustum's width or height at its far end.
  scene_radius = std::max({0.5f * (far_z - near_z), far_z * std::tan(0.5f * scene.fov_x),
                           far_z * std::tan(0.5f * scene.fov_y)});
  fov_x = std::clamp(scene.fov_x, 0.05f, 3.0f);
  fov_y = std::clamp(scene.fov_y, 0.05f, 3.0f);
}

void OrbitCamera::set_preset(CloudViewPreset preset, const CloudScene& scene) {
  fit(scene);
  yaw = 0.0f;
  pitch = 0.0f;
  orthographic = preset != CloudViewPreset::Camera || !scene.pinhole;
  if (preset == CloudViewPreset::Camera) {
    distance = -target.z;  // the eye at the stereo camera's centre
    return;
  }
  if (preset == CloudViewPreset::Top) pitch = kHalfPi;
  if (preset == CloudViewPreset::Side) yaw = kHalfPi;
  // The scene's radius fills 80 % of the view's half height.
  distance = scene_radius / (0.8f * std::tan(0.5f * fov_y));
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw -= dx * kRadiansPerPixel;
  pitch = std::clamp(pitch + dy * kRadiansPerPixel, -kHalfPi, kHalfPi);
}

float OrbitCamera::tan_half_height(float aspect) const {
  aspect = aspect > 0.0f ? aspect : 1.0f;
  // A cell narrower than the camera's image widens the view instead of cutting the image.
  return std::max(std::tan(0.5f * fov_y), std::tan(0.5f * fov_x) / aspect);
}

void OrbitCamera::pan(float dx, float dy, float cell_width, float cell_height) {
  if (cell_width <= 0.0f || cell_height <= 0.0f) return;
  const float world_per_pixel =
      2.0f * distance * tan_half_height(cell_width / cell_height) / cell_height;
  const Axes a = axes(yaw, pitch);
  target = add(target, add(scale(a.right, -dx * world_per_pixel), scale(a.up, dy * world_per_pixel)));
}

void OrbitCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.85f, steps), 1e-3f * scene_radius,
                        100.0f * scene_radius);
}

Vec3 OrbitCamera::eye() const { return add(target, scale(axes(yaw, pitch).back, distance)); }

Mat4 OrbitCamera::view() const {
  const Axes a = axes(yaw, pitch);
  const Vec3 e = eye();
  Mat4 r = Mat4::identity();
  const Vec3 rows[3] = {a.right, a.up, a.back};
  for (int row = 0; row < 3; ++row) {
    r.m[0 * 4 + row] = rows[row].x;
    r.m[1 * 4 + row] = rows[row].y;
    r.m[2 * 4 + row] = rows[row].z;
    r.m[3 * 4 + row] = -dot(rows[row], e);
  }
  return r;
}

Mat4 OrbitCamera::projection(float aspect) const {
  aspect = aspect > 0.0f ? aspect : 1.0f;
  const float tan_half = tan_half_height(aspect);
  // Clip planes around everything within a few scene radii of the target.
  const float far_clip = distance + 4.0f * scene_radius;
  Mat4 r;
  if (orthographic) {
    const float half_h = distance * tan_half;
    const float half_w = half_h * aspect;
    const float near_clip = -far_clip;  // behind the eye too: an orthographic view has no eye
    r.m[0] = 1.0f / half_w;
    r.m[5] = 1.0f / half_h;
    r.m[10] = -2.0f / (far_clip - near_clip);
    r.m[14] = -(far_clip + near_clip) / (far_clip - near_clip);
    r.m[15] = 1.0f;
    return r;
  }
  const float near_clip = std::max(1e-3f * scene_radius, 1e-3f * distance);
  r.m[0] = 1.0f / (tan_half * aspect);
  r.m[5] = 1.0f / tan_half;
  r.m[10] = -(far_clip + near_clip) / (far_clip - near_clip);
  r.m[11] = -1.0f;
  r.m[14] = -2.0f * far_clip * near_clip / (far_clip - near_clip);
  return r;
}

Mat4 OrbitCamera::cloud_to_clip(float aspect) const {
  return projection(aspect) * view() * world_from_camera_matrix();
}

}  // namespace sv
