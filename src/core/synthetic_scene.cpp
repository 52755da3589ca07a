#include "src/core/synthetic_scene.h"

// The scene, exactly (world units; x right, y down, z forward; "depth" = camera-space z):
//
// Cameras: two pinhole cameras with identity rotation and the same intrinsics: focal length
//   f = 0.9 * width pixels, principal point ((width-1)/2, (height-1)/2), so pixel (x, y) has
//   its centre at image coordinates (x, y). The right camera sits at left + (B, 0, 0) with
//   B = max_disparity / f, which makes a point at depth Z have disparity f*B/Z = D/Z
//   (D = max_disparity) and x_right = x_left - D/Z. The ray through image point (u, v) has
//   direction ((u - cx)/f, (v - cy)/f, 1), so its parameter t is the depth of what it hits.
// Surfaces (closest hit wins): back wall z = 10 (disparity ~D/10, fills the background); ground
//   plane y = h, with h chosen so the bottom row's centre sees ground at depth 1.7; a sphere of
//   radius 0.7 resting on the ground near depth 5 (bobbing up with the frame index); a tall near
//   post (axis-aligned box, front face at depth 1.08, disparity ~0.93 D, never above 0.96 D with
//   the motion below) left of centre; a small floating cube near depth 2.2 upper right. On the
//   wall: a low-texture patch (brightness varies by about +-1 level) upper left and a vertical
//   stripe region (period 8 px) upper middle. Horizontal positions are fractions of the field
//   of view, vertical ones scale with the image's aspect, so the layout looks alike at every
//   size.
// Textures: multi-octave value noise evaluated at the hit point in the object's own frame (2D
//   in-plane coordinates on the wall and ground, 3D elsewhere), so a surface point has the same
//   colour seen from either camera. An octave whose on-screen wavelength (at the hit's depth)
//   is under 2 px fades to its mean, to avoid aliasing identically in both views. Each object
//   has two seed-chosen colours blended by low-frequency noise; a fixed directional light adds
//   view-independent Lambertian shading.
// Pixels: colour = mean of the 2x2 subsamples at (x +- 0.25, y +- 0.25), converted to 8 bits as
//   floor(255 c + 0.5) clamped. Ground truth (left view) = D / depth of the hit of the ray
//   through the pixel centre, as float.
// Non-occluded mask: the left centre hit P projects to x_r = x - gt in the right image; the
//   pixel is occluded (0) if x_r lies outside [-0.5, width - 0.5], or if the right camera's ray
//   towards P hits something nearer than P (relative depth tolerance 1e-6); else 255.
// Discontinuity mask: a pixel is a jump pixel if its ground truth differs by more than 1 px
//   from its right or lower neighbour (both pixels of the pair are jump pixels); the mask is
//   255 at non-occluded pixels within Chebyshev distance 4 (a 9x9 window) of a jump pixel.
// Motion (frame i, timestamp i/30 s): the camera pair moves by (0.06 sin(2 pi i/150), 0,
//   0.03 sin(2 pi i/110)); the sphere rises by 0.3 (1 - cos(2 pi i/60)) / 2.
// Seed: picks the object colours, small layout offsets and all noise through a local integer
//   hash (no <random> distributions, whose output differs between standard libraries); rows are
//   rendered independently, so the thread count never changes a frame.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "src/core/block_pool.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/core/synthetic_scene_state.h"

namespace sv {
namespace synthetic {
namespace {

constexpr double kGroundDepthAtBottomRow = 1.7;
constexpr double kNoHit = std::numeric_limits<double>::infinity();


// ---- Deterministic randomness ------------------------------------------------------------

uint32_t avalanche(uint32_t h) {
  h ^= h >> 16;
  h *= kAvalanche1;
  h ^= h >> 15;
  h *= kAvalanche2;
  h ^= h >> 15;
  return h;
}

// One multiply per axis with distinct odd constants, then a full avalanche: cheap enough for
// the 8 lattice corners of every noise sample, well mixed enough that no pattern shows.
uint32_t hash_lattice(int32_t x, int32_t y, int32_t z, uint32_t seed) {
  return avalanche(seed ^ (static_cast<uint32_t>(x) * kHashX) ^ (static_cast<uint32_t>(y) * kHashY) ^
                   (static_cast<uint32_t>(z) * kHashZ));
}

// Uniform in [0, 1) from a seed and a small stream index (for layout and colours).
double random_unit(uint32_t seed, uint32_t index) {
  return (hash_lattice(static_cast<int32_t>(index), 17, 4099, seed) >> 8) * (1.0 / 16777216.0);
}

double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
double lerp(double a, double b, double t) { return a + (b - a) * t; }
double smoothstep(double lo, double hi, double v) {
  const double t = std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// The lattice values of the cell one noise stream sampled last. Neighbouring samples of a row
// mostly fall in the same cell (the finest octave spans 4 px or more), so most samples reuse the
// values instead of hashing the corners again; they are the very values the hashes give, so the
// frames stay the same bit for bit. One per row and stream, never shared between threads.
struct LatticeCell {
  bool valid = false;
  int32_t ix = 0, iy = 0, iz = 0;
  double corner[8] = {};
};

constexpr double kToUnit = 1.0 / 16777216.0;

// Value noise in [0, 1): random values on the integer lattice, quintic interpolation. Planar
// surfaces use the 2D variant (p.z ignored), which needs half the lattice hashes. `c` remembers
// the lattice values of the last cell the stream sampled (LatticeCell).
double value_noise_2d(Vec3 p, uint32_t seed, LatticeCell& c) {
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  const int32_t ix = static_cast<int32_t>(fx), iy = static_cast<int32_t>(fy);
  const double tx = fade(p.x - fx), ty = fade(p.y - fy);
  if (!c.valid || c.ix != ix || c.iy != iy || c.iz != 0) {
    c = {true, ix, iy, 0, {}};
    c.corner[0] = (hash_lattice(ix, iy, 0, seed) >> 8) * kToUnit;
    c.corner[1] = (hash_lattice(ix + 1, iy, 0, seed) >> 8) * kToUnit;
    c.corner[2] = (hash_lattice(ix, iy + 1, 0, seed) >> 8) * kToUnit;
    c.corner[3] = (hash_lattice(ix + 1, iy + 1, 0, seed) >> 8) * kToUnit;
  }
  return lerp(lerp(c.corner[0], c.corner[1], tx), lerp(c.corner[2], c.corner[3], tx), ty);
}

double value_noise_3d(Vec3 p, uint32_t seed, LatticeCell& c) {
  const double fx = std::floor(p.x), fy = std::floor(p.y), fz = std::floor(p.z);
  const int32_t ix = static_cast<int32_t>(fx), iy = static_cast<int32_t>(fy),
                iz = static_cast<int32_t>(fz);
  const double tx = fade(p.x - fx), ty = fade(p.y - fy), tz = fade(p.z - fz);
  if (!c.valid || c.ix != ix || c.iy != iy || c.iz != iz) {
    c = {true, ix, iy, iz, {}};
    for (int i = 0; i < 8; ++i) {
      c.corner[i] = (hash_lattice(ix + (i & 1), iy + ((i >> 1) & 1), iz + (i >> 2), seed) >> 8) * kToUnit;
    }
  }
  const double* corner = c.corner;
  const double x00 = lerp(corner[0], corner[1], tx), x10 = lerp(corner[2], corner[3], tx);
  const double x01 = lerp(corner[4], corner[5], tx), x11 = lerp(corner[6], corner[7], tx);
  return lerp(lerp(x00, x10, ty), lerp(x01, x11, ty), tz);
}

// Multi-octave noise with contrast stretched to roughly fill [0, 1]. Octaves too fine for the
// pixel grid at this depth fade to their mean (same depth in both views, so same colour).
// `cells`: one LatticeCell per octave.
double layered_noise(Vec3 p, bool planar, double wavelength, int octaves, double pixels_per_unit,
                     uint32_t seed, LatticeCell* cells) {
  double sum = 0.0, weight_sum = 0.0, amplitude = 1.0;
  for (int k = 0; k < octaves; ++k) {
    const double detail = smoothstep(2.0, 4.0, wavelength * pixels_per_unit);
    double n = 0.5;
    if (detail > 0.0) {
      const Vec3 q = p * (1.0 / wavelength);
      n = planar ? value_noise_2d(q, seed + kOctaveSeedStep * k, cells[k])
                 : value_noise_3d(q, seed + kOctaveSeedStep * k, cells[k]);
    }
    sum += amplitude * lerp(0.5, n, detail);
    weight_sum += amplitude;
    amplitude *= kOctaveAmplitude;
    wavelength *= 0.5;
  }
  return std::clamp(0.5 + (sum / weight_sum - 0.5) * kContrast, 0.0, 1.0);
}

// ---- Scene description -------------------------------------------------------------------

Color hsv_color(double hue, double saturation, double value) {
  const double h = (hue - std::floor(hue)) * 6.0;
  const auto channel = [&](double offset) {
    const double k = std::fmod(offset + h, 6.0);
    return value - value * saturation * std::clamp(std::min(k, 4.0 - k), 0.0, 1.0);
  };
  return {channel(5.0), channel(3.0), channel(1.0)};
}

struct Hit {
  double t = kNoHit;  // equals the depth below camera, since ray directions have z = 1
  SurfaceId surface = SurfaceId::Wall;
  Vec3 normal;
};

Vec3 pixel_ray(const SceneState& s, double u, double v) {
  return {(u - s.cx) / s.focal, (v - s.cy) / s.focal, 1.0};
}

void intersect_box(const Box& box, SurfaceId id, Vec3 o, Vec3 d, Hit& best) {
  double t_enter = 0.0, t_exit = kNoHit;
  int enter_axis = -1;
  double enter_sign = 0.0;
  const double origin[3] = {o.x, o.y, o.z}, dir[3] = {d.x, d.y, d.z};
  const double lo[3] = {box.lo.x, box.lo.y, box.lo.z}, hi[3] = {box.hi.x, box.hi.y, box.hi.z};
  for (int axis = 0; axis < 3; ++axis) {
    if (dir[axis] == 0.0) {
      if (origin[axis] < lo[axis] || origin[axis] > hi[axis]) return;
      continue;
    }
    double t0 = (lo[axis] - origin[axis]) / dir[axis];
    double t1 = (hi[axis] - origin[axis]) / dir[axis];
    double sign = -1.0;  // entering through the low face: its normal points to -axis
    if (t0 > t1) {
      std::swap(t0, t1);
      sign = 1.0;
    }
    if (t0 > t_enter) {
      t_enter = t0;
      enter_axis = axis;
      enter_sign = sign;
    }
    t_exit = std::min(t_exit, t1);
  }
  if (enter_axis < 0 || t_enter > t_exit || t_enter >= best.t) return;
  best.t = t_enter;
  best.surface = id;
  best.normal = {enter_axis == 0 ? enter_sign : 0.0, enter_axis == 1 ? enter_sign : 0.0,
                 enter_axis == 2 ? enter_sign : 0.0};
}

Hit trace(const SceneState& s, Vec3 o, Vec3 d) {
  Hit best;
  best.t = kWallDepth - o.z;  // the wall: every ray has d.z = 1, so it is always hit
  best.surface = SurfaceId::Wall;
  best.normal = {0, 0, -1};
  if (d.y > 0.0) {
    const double t = (s.ground_y - o.y) / d.y;
    if (t > 0.0 && t < best.t) {
      best = {t, SurfaceId::Ground, {0, -1, 0}};
    }
  }
  {
    const Vec3 oc = o - s.sphere_center;
    const double a = dot(d, d), half_b = dot(oc, d);
    const double c = dot(oc, oc) - s.sphere_radius * s.sphere_radius;
    const double discriminant = half_b * half_b - a * c;
    if (discriminant >= 0.0) {
      const double t = (-half_b - std::sqrt(discriminant)) / a;
      if (t > 0.0 && t < best.t) {
        best = {t, SurfaceId::Sphere, (oc + d * t) * (1.0 / s.sphere_radius)};
      }
    }
  }
  intersect_box(s.near_post, SurfaceId::NearPost, o, d, best);
  intersect_box(s.floating_cube, SurfaceId::FloatingCube, o, d, best);
  return best;
}

// The LatticeCells of every noise stream shade() samples: per surface, the four octaves of
// the brightness, the colour mix and the low-texture patch.
struct ShadeCache {
  static constexpr int kBrightness = 0, kMix = 4, kPatch = 5, kStreams = 6;
  LatticeCell cells[static_cast<int>(SurfaceId::Count)][kStreams];
};

Color shade(const SceneState& s, const Hit& hit, Vec3 point, ShadeCache& cache) {
  const Material& m = s.materials[static_cast<int>(hit.surface)];
  LatticeCell* cells = cache.cells[static_cast<int>(hit.surface)];
  // Texture coordinates move with the object (only the sphere moves); the planes use their
  // two in-plane coordinates.
  Vec3 local = point;
  bool planar = true;
  if (hit.surface == SurfaceId::Wall) {
    local = {point.x, point.y, 0.0};
  } else if (hit.surface == SurfaceId::Ground) {
    local = {point.x, point.z, 0.0};
  } else {
    local = hit.surface == SurfaceId::Sphere ? point - s.sphere_center : point;
    planar = false;
  }
  const double pixels_per_unit = s.focal / hit.t;

  double brightness = 0.0, mix = 0.0;
  const bool on_wall = hit.surface == SurfaceId::Wall;
  if (on_wall && s.low_texture_patch.contains(point.x, point.y)) {
    brightness = 0.62 + 0.012 * (value_noise_2d(local * (1.0 / m.wavelength), m.noise_seed,
                                                cells[ShadeCache::kPatch]) - 0.5);
    mix = 0.0;
  } else if (on_wall && s.stripe_region.contains(point.x, point.y)) {
    brightness = stripe_brightness(s, point.x);
    mix = 1.0;
  } else {
    brightness = 0.15 + 0.9 * layered_noise(local, planar, m.wavelength, kBrightnessOctaves,
                                            pixels_per_unit, m.noise_seed,
                                            &cells[ShadeCache::kBrightness]);
    mix = smoothstep(0.3, 0.7,
                     layered_noise(local, planar, 2.0 * m.wavelength, 1, pixels_per_unit,
                                   m.noise_seed + kMixSeedOffset, &cells[ShadeCache::kMix]));
  }

  const double lambert = std::max(0.0, dot(hit.normal, kLight));
  const double light = brightness * (0.55 + 0.45 * lambert);
  return {light * lerp(m.first.r, m.second.r, mix), light * lerp(m.first.g, m.second.g, mix),
          light * lerp(m.first.b, m.second.b, mix)};
}

uint8_t to_byte(double v) {
  return static_cast<uint8_t>(std::clamp(std::floor(v * 255.0 + 0.5), 0.0, 255.0));
}

}  // namespace

double stripe_brightness(const SceneState& s, double x) {
  return 0.2 + 0.75 * (0.5 + 0.5 * std::sin(2.0 * kPi * x / s.stripe_period));
}

SceneState build_scene(const SyntheticSceneConfig& config, int frame_index) {
  SceneState s;
  s.width = config.width;
  s.height = config.height;
  s.focal = 0.9 * config.width;
  s.cx = (config.width - 1) * 0.5;
  s.cy = (config.height - 1) * 0.5;
  s.max_disparity = config.max_disparity;
  s.baseline = config.max_disparity / s.focal;

  const double i = frame_index;
  s.left_camera = {0.06 * std::sin(2.0 * kPi * i / 150.0), 0.0,
                   0.03 * std::sin(2.0 * kPi * i / 110.0)};

  // Half the field of view per unit depth; vertical positions scale with it so the layout
  // keeps its place in images of any aspect.
  const double half_width = (s.cx + 0.5) / s.focal;
  const double half_height = (s.cy + 0.5) / s.focal;
  s.ground_y = std::max(kGroundDepthAtBottomRow * s.cy / s.focal, 0.05);

  const uint32_t seed = config.seed;
  const auto jitter = [&](uint32_t index, double amount) {
    return (random_unit(seed, index) - 0.5) * 2.0 * amount;
  };

  const double bob = 0.3 * 0.5 * (1.0 - std::cos(2.0 * kPi * i / 60.0));
  s.sphere_radius = 0.7;
  s.sphere_center = {0.38 * 5.0 * half_width + jitter(1, 0.12), s.ground_y - s.sphere_radius - bob,
                     5.0 + jitter(2, 0.3)};

  const double post_x = -0.45 * 1.08 * half_width + jitter(3, 0.02);
  // Wider than the disparity jump to the wall (~0.83 D px on screen vs ~1.0 D px), so its
  // occlusion strip is a plain band of background.
  s.near_post = {{post_x - 0.1, -0.2 * 1.08 * half_height, 1.08}, {post_x + 0.1, s.ground_y, 1.28}};
  const double cube_x = 0.5 * 2.2 * half_width + jitter(4, 0.08);
  const double cube_y = -0.55 * 2.2 * half_height;
  s.floating_cube = {{cube_x - 0.16, cube_y - 0.16, 2.2}, {cube_x + 0.16, cube_y + 0.16, 2.52}};

  const double wall_w = kWallDepth * half_width, wall_h = kWallDepth * half_height;
  s.low_texture_patch = {-0.92 * wall_w, -0.58 * wall_w, -0.9 * wall_h, -0.45 * wall_h};
  s.stripe_region = {-0.3 * wall_w, 0.15 * wall_w, -0.85 * wall_h, -0.5 * wall_h};
  s.stripe_period = 8.0 * kWallDepth / s.focal;

  // Coarsest texture octave about 32 px on screen at each object's typical depth.
  const double typical_depth[] = {kWallDepth, 3.0, 5.0, 1.15, 2.3};
  for (int k = 0; k < static_cast<int>(SurfaceId::Count); ++k) {
    Material& m = s.materials[k];
    const double hue = random_unit(seed, 100 + k);
    m.first = hsv_color(hue, 0.45 + 0.3 * random_unit(seed, 200 + k), 1.0);
    m.second = hsv_color(hue + 0.2 + 0.3 * random_unit(seed, 300 + k), 0.6, 0.9);
    m.wavelength = 32.0 * typical_depth[k] / s.focal;
    m.noise_seed = hash_lattice(k, 0, 0, seed);
  }
  return s;
}

ImageRgb8 render_view(const SceneState& s, Vec3 camera, BlockPool* pool) {
  ImageRgb8 image = pooled_image<ImageRgb8>(pool, s.width, s.height);  // every pixel written below
  parallel_for(0, s.height, [&](int y) {
    Rgb8* row = image.row(y);
    ShadeCache cache;
    for (int x = 0; x < s.width; ++x) {
      Color sum;
      for (int sub = 0; sub < 4; ++sub) {
        const Vec3 d = pixel_ray(s, x + ((sub & 1) ? 0.25 : -0.25), y + ((sub & 2) ? 0.25 : -0.25));
        const Hit hit = trace(s, camera, d);
        const Color c = shade(s, hit, camera + d * hit.t, cache);
        sum.r += c.r;
        sum.g += c.g;
        sum.b += c.b;
      }
      row[x] = Rgb8{to_byte(sum.r * 0.25), to_byte(sum.g * 0.25), to_byte(sum.b * 0.25)};
    }
  });
  return image;
}

namespace {

void compute_ground_truth(const SceneState& s, SyntheticFrame& frame) {
  const Vec3 right_camera = s.left_camera + Vec3{s.baseline, 0, 0};
  frame.ground_truth = ImageF32(s.width, s.height);
  frame.nonoccluded_mask = ImageU8(s.width, s.height);
  parallel_for(0, s.height, [&](int y) {
    for (int x = 0; x < s.width; ++x) {
      const Hit hit = trace(s, s.left_camera, pixel_ray(s, x, y));
      const double disparity = s.max_disparity / hit.t;
      frame.ground_truth.at(x, y) = static_cast<float>(disparity);
      const double x_right = x - disparity;
      bool visible = x_right >= -0.5 && x_right <= s.width - 0.5;
      if (visible) {
        const Hit seen = trace(s, right_camera, pixel_ray(s, x_right, y));
        visible = seen.t >= hit.t * (1.0 - 1e-6);
      }
      frame.nonoccluded_mask.at(x, y) = visible ? 255 : 0;
    }
  });
}

void compute_discontinuities(SyntheticFrame& frame) {
  const ImageF32& gt = frame.ground_truth;
  const int w = gt.width(), h = gt.height();
  ImageU8 jump(w, h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x + 1 < w && std::fabs(gt.at(x, y) - gt.at(x + 1, y)) > 1.0f)
        jump.at(x, y) = jump.at(x + 1, y) = 1;
      if (y + 1 < h && std::fabs(gt.at(x, y) - gt.at(x, y + 1)) > 1.0f)
        jump.at(x, y) = jump.at(x, y + 1) = 1;
    }
  }
  // Separable 9x9 dilation: horizontal then vertical.
  constexpr int kRadius = 4;
  ImageU8 wide(w, h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int dx = -kRadius; dx <= kRadius && !wide.at(x, y); ++dx) {
        if (x + dx >= 0 && x + dx < w && jump.at(x + dx, y)) wide.at(x, y) = 1;
      }
    }
  }
  frame.discontinuity_mask = ImageU8(w, h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!frame.nonoccluded_mask.at(x, y)) continue;
      for (int dy = -kRadius; dy <= kRadius; ++dy) {
        if (y + dy >= 0 && y + dy < h && wide.at(x, y + dy)) {
          frame.discontinuity_mask.at(x, y) = 255;
          break;
        }
      }
    }
  }
}

}  // namespace
}  // namespace synthetic

SyntheticScene::SyntheticScene(SyntheticSceneConfig config) : config_(config) {
  if (config_.width < 1 || config_.height < 1) {
    throw InputError("synthetic scene: size " + std::to_string(config_.width) + "x" +
                     std::to_string(config_.height) + " must be at least 1x1");
  }
  if (config_.max_disparity < 1) {
    throw InputError("synthetic scene: max_disparity " + std::to_string(config_.max_disparity) +
                     " must be at least 1");
  }
}

SyntheticFrame SyntheticScene::render(int frame_index, BlockPool* views_pool) const {
  SyntheticFrame frame = render_views(frame_index, views_pool);
  const synthetic::SceneState scene = synthetic::build_scene(config_, frame_index);
  synthetic::compute_ground_truth(scene, frame);
  synthetic::compute_discontinuities(frame);
  return frame;
}

SyntheticFrame SyntheticScene::render_views(int frame_index, BlockPool* views_pool) const {
  using synthetic::Vec3;
  const synthetic::SceneState scene = synthetic::build_scene(config_, frame_index);
  SyntheticFrame frame;
  frame.index = frame_index;
  frame.timestamp_s = frame_index / 30.0;
  frame.left = synthetic::render_view(scene, scene.left_camera, views_pool);
  frame.right =
      synthetic::render_view(scene, scene.left_camera + Vec3{scene.baseline, 0, 0}, views_pool);
  return frame;
}

}  // namespace sv
