#pragma once

// The synthetic scene's description of one frame (synthetic_scene.cpp defines the scene), for
// renderers that draw the same frames another way: the SIMD view renderer of src/cpu_fast.
// Every constant a view's pixels depend on is here, so both renderers read one definition.

#include <cstdint>

#include "src/core/image.h"
#include "src/core/synthetic_scene.h"

namespace sv {
class BlockPool;  // block_pool.h
}  // namespace sv

namespace sv::synthetic {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

constexpr double kPi = 3.14159265358979323846;
constexpr double kWallDepth = 10.0;

// Lattice hash (synthetic_scene.cpp): one multiply per axis, then an avalanche.
constexpr uint32_t kHashX = 0x8DA6B343u, kHashY = 0xD8163841u, kHashZ = 0xCB1AB31Fu;
constexpr uint32_t kAvalanche1 = 0x21F0AAADu, kAvalanche2 = 0x735A2D97u;

// Noise and shading constants.
constexpr int kBrightnessOctaves = 4;
constexpr double kOctaveAmplitude = 0.65;  // each octave's weight against the previous one
constexpr double kContrast = 2.2;
constexpr uint32_t kOctaveSeedStep = 1013u;
constexpr uint32_t kMixSeedOffset = 7u;
constexpr Vec3 kLight = {-0.35, -0.75, -0.56};  // towards the light: up, left, behind camera

enum class SurfaceId { Wall = 0, Ground, Sphere, NearPost, FloatingCube, Count };

struct Color {
  double r = 0, g = 0, b = 0;
};

struct Material {
  Color first, second;
  double wavelength = 1.0;  // of the coarsest octave, world units
  uint32_t noise_seed = 0;
};

struct Box {
  Vec3 lo, hi;
};

struct Rect {
  double x0, x1, y0, y1;
  bool contains(double x, double y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// Everything needed to trace one frame.
struct SceneState {
  int width = 0, height = 0;
  double focal = 0, cx = 0, cy = 0, baseline = 0, max_disparity = 0;
  Vec3 left_camera;
  double ground_y = 0;
  Vec3 sphere_center;
  double sphere_radius = 0;
  Box near_post, floating_cube;
  Rect low_texture_patch, stripe_region;  // on the wall, world x and y
  double stripe_period = 0;
  Material materials[static_cast<int>(SurfaceId::Count)];
};

// Frame `frame_index` of the scene `config` describes.
SceneState build_scene(const SyntheticSceneConfig& config, int frame_index);

// The stripe region's brightness at wall position x (a sine, left to the C library).
double stripe_brightness(const SceneState& s, double x);

// The view from `camera` (the left camera, or it plus (baseline, 0, 0)), as SyntheticScene
// renders it.
ImageRgb8 render_view(const SceneState& s, Vec3 camera, BlockPool* pool = nullptr);

}  // namespace sv::synthetic
