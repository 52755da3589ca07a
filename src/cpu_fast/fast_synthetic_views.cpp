// The synthetic scene's views (synthetic_scene.cpp defines them) with one SIMD lane per pixel.
//
// Every lane runs the reference's double operations in the reference's order: the ray, the
// closest hit over wall, ground, sphere and boxes, the layered value noise of the surface hit
// (lattice hashes in 32-bit lanes), the shading and the 2x2 subsample mean. The branches of the
// scalar code become selects: a vector computes each surface that one of its lanes hit and each
// lane keeps its own. Selects and IEEE operations give the scalar results exactly, provided the
// compiler fuses no multiply-add, which this file's build flags forbid (-ffp-contract=off).
// The stripe region's sine is the C library's, called per lane as the reference does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_synthetic_views.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/block_pool.h"
#include "src/core/parallel_for.h"
#include "src/core/synthetic_scene_state.h"
#include "src/cpu_fast/fast_synthetic_views.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace syn = sv::synthetic;

using D = hn::ScalableTag<double>;
using DI = hn::Rebind<int32_t, D>;
using DU = hn::Rebind<uint32_t, D>;
using V = decltype(hn::Zero(D()));
using VU = decltype(hn::Zero(DU()));
using M = decltype(hn::FirstN(D(), 0));

constexpr double kToUnit = 1.0 / 16777216.0;

struct Vec3V {
  V x, y, z;
};

V Fade(V t) {
  const D d;
  // t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
  const V inner = hn::Add(hn::Mul(t, hn::Sub(hn::Mul(t, hn::Set(d, 6.0)), hn::Set(d, 15.0))), hn::Set(d, 10.0));
  return hn::Mul(hn::Mul(hn::Mul(t, t), t), inner);
}

V Lerp(V a, V b, V t) { return hn::Add(a, hn::Mul(hn::Sub(b, a), t)); }

// std::clamp for numbers (no NaN reaches it).
V Clamp(V v, double lo, double hi) {
  const D d;
  return hn::Min(hn::Max(v, hn::Set(d, lo)), hn::Set(d, hi));
}

V Smoothstep(double lo, double hi, V v) {
  const D d;
  const double range = hi - lo;
  // Dividing by 2 and multiplying by 0.5 round the same exact quotient: the cheaper one.
  const V scaled = range == 2.0 ? hn::Mul(hn::Sub(v, hn::Set(d, lo)), hn::Set(d, 0.5))
                                : hn::Div(hn::Sub(v, hn::Set(d, lo)), hn::Set(d, range));
  const V t = Clamp(scaled, 0.0, 1.0);
  return hn::Mul(hn::Mul(t, t), hn::Sub(hn::Set(d, 3.0), hn::Mul(hn::Set(d, 2.0), t)));
}

VU Avalanche(VU h) {
  const DU du;
  h = hn::Xor(h, hn::ShiftRight<16>(h));
  h = hn::Mul(h, hn::Set(du, syn::kAvalanche1));
  h = hn::Xor(h, hn::ShiftRight<15>(h));
  h = hn::Mul(h, hn::Set(du, syn::kAvalanche2));
  return hn::Xor(h, hn::ShiftRight<15>(h));
}

// The lattice value at (x, y, z) in [0, 1), z == nullptr for 0.
V LatticeValue(VU x, VU y, const VU* z, uint32_t seed) {
  const D d;
  const DU du;
  const DI di;
  VU h = hn::Xor(hn::Xor(hn::Set(du, seed), hn::Mul(x, hn::Set(du, syn::kHashX))),
                 hn::Mul(y, hn::Set(du, syn::kHashY)));
  if (z != nullptr) h = hn::Xor(h, hn::Mul(*z, hn::Set(du, syn::kHashZ)));
  const VU high = hn::ShiftRight<8>(Avalanche(h));
  return hn::Mul(hn::PromoteTo(d, hn::BitCast(di, high)), hn::Set(d, kToUnit));
}

// floor(v) and its integer, as the reference's casts give it.
struct Cell {
  V fraction;
  VU index;
};
Cell Split(V v) {
  const DI di;
  const DU du;
  const V f = hn::Floor(v);
  return {hn::Sub(v, f), hn::BitCast(du, hn::DemoteTo(di, f))};
}

V ValueNoise2d(const Vec3V& p, uint32_t seed) {
  const DU du;
  const Cell cx = Split(p.x), cy = Split(p.y);
  const V tx = Fade(cx.fraction), ty = Fade(cy.fraction);
  const VU one = hn::Set(du, 1u);
  const VU x1 = hn::Add(cx.index, one), y1 = hn::Add(cy.index, one);
  const V c00 = LatticeValue(cx.index, cy.index, nullptr, seed);
  const V c10 = LatticeValue(x1, cy.index, nullptr, seed);
  const V c01 = LatticeValue(cx.index, y1, nullptr, seed);
  const V c11 = LatticeValue(x1, y1, nullptr, seed);
  return Lerp(Lerp(c00, c10, tx), Lerp(c01, c11, tx), ty);
}

V ValueNoise3d(const Vec3V& p, uint32_t seed) {
  const DU du;
  const Cell cx = Split(p.x), cy = Split(p.y), cz = Split(p.z);
  const V tx = Fade(cx.fraction), ty = Fade(cy.fraction), tz = Fade(cz.fraction);
  const VU one = hn::Set(du, 1u);
  const VU xs[2] = {cx.index, hn::Add(cx.index, one)};
  const VU ys[2] = {cy.index, hn::Add(cy.index, one)};
  const VU zs[2] = {cz.index, hn::Add(cz.index, one)};
  V corner[8];
  for (int i = 0; i < 8; ++i) corner[i] = LatticeValue(xs[i & 1], ys[(i >> 1) & 1], &zs[i >> 2], seed);
  const V x00 = Lerp(corner[0], corner[1], tx), x10 = Lerp(corner[2], corner[3], tx);
  const V x01 = Lerp(corner[4], corner[5], tx), x11 = Lerp(corner[6], corner[7], tx);
  return Lerp(Lerp(x00, x10, ty), Lerp(x01, x11, ty), tz);
}

Vec3V Scale(const Vec3V& p, double s) {
  const D d;
  const V f = hn::Set(d, s);
  return {hn::Mul(p.x, f), hn::Mul(p.y, f), hn::Mul(p.z, f)};
}

V LayeredNoise(const Vec3V& p, bool planar, double wavelength, int octaves, V pixels_per_unit,
               uint32_t seed) {
  const D d;
  const V half = hn::Set(d, 0.5);
  V sum = hn::Zero(d);
  double weight_sum = 0.0, amplitude = 1.0;
  for (int k = 0; k < octaves; ++k) {
    const V detail = Smoothstep(2.0, 4.0, hn::Mul(hn::Set(d, wavelength), pixels_per_unit));
    const M detailed = hn::Gt(detail, hn::Zero(d));
    V n = half;
    if (!hn::AllFalse(d, detailed)) {
      const Vec3V q = Scale(p, 1.0 / wavelength);
      const uint32_t octave_seed = seed + syn::kOctaveSeedStep * k;
      n = hn::IfThenElse(detailed, planar ? ValueNoise2d(q, octave_seed) : ValueNoise3d(q, octave_seed), half);
    }
    sum = hn::Add(sum, hn::Mul(hn::Set(d, amplitude), Lerp(half, n, detail)));
    weight_sum += amplitude;
    amplitude *= syn::kOctaveAmplitude;
    wavelength *= 0.5;
  }
  const V stretched = hn::Mul(hn::Sub(hn::Div(sum, hn::Set(d, weight_sum)), half), hn::Set(d, syn::kContrast));
  return Clamp(hn::Add(half, stretched), 0.0, 1.0);
}

// The closest hit of each lane's ray from `o` along (dx, dy, 1): depth, surface (as a number)
// and the Lambertian factor of its normal.
struct HitV {
  V t, surface, lambert;
};

double ScalarLambert(syn::Vec3 normal) { return std::max(0.0, syn::dot(normal, syn::kLight)); }

// What the x axis of a box gives a lane's ray, computed once a view (ViewTables).
struct BoxSlab {
  V t0, t1;  // (lo.x - o.x) / dx and (hi.x - o.x) / dx
};

void IntersectBox(const syn::Box& box, syn::SurfaceId id, syn::Vec3 o, V dx, double dy,
                  const BoxSlab& slab_x, HitV& best) {
  const D d;
  const double origin[3] = {o.x, o.y, o.z};
  const double lo[3] = {box.lo.x, box.lo.y, box.lo.z}, hi[3] = {box.hi.x, box.hi.y, box.hi.z};
  V t_enter = hn::Zero(d), t_exit = hn::Set(d, std::numeric_limits<double>::infinity());
  V enter_axis = hn::Set(d, -1.0), enter_sign = hn::Zero(d);
  M missed = hn::FirstN(d, 0);
  for (int axis = 0; axis < 3; ++axis) {
    M flat;
    V t0, t1;
    if (axis == 0) {
      flat = hn::Eq(dx, hn::Zero(d));
      t0 = slab_x.t0;
      t1 = slab_x.t1;
    } else {
      // dy is the row's and dz = 1: the same for every lane.
      const double dir = axis == 1 ? dy : 1.0;
      flat = hn::Eq(hn::Set(d, dir), hn::Zero(d));
      t0 = hn::Set(d, (lo[axis] - origin[axis]) / dir);
      t1 = hn::Set(d, (hi[axis] - origin[axis]) / dir);
    }
    if (origin[axis] < lo[axis] || origin[axis] > hi[axis]) missed = hn::Or(missed, flat);
    const M swap = hn::Gt(t0, t1);
    const V first = hn::IfThenElse(swap, t1, t0), second = hn::IfThenElse(swap, t0, t1);
    const V sign = hn::IfThenElse(swap, hn::Set(d, 1.0), hn::Set(d, -1.0));
    const M enters = hn::AndNot(flat, hn::Gt(first, t_enter));
    t_enter = hn::IfThenElse(enters, first, t_enter);
    enter_axis = hn::IfThenElse(enters, hn::Set(d, axis), enter_axis);
    enter_sign = hn::IfThenElse(enters, sign, enter_sign);
    t_exit = hn::IfThenElse(flat, t_exit, hn::Min(t_exit, second));
  }
  const M hit = hn::AndNot(missed, hn::And(hn::Ge(enter_axis, hn::Zero(d)),
                                           hn::And(hn::Le(t_enter, t_exit), hn::Lt(t_enter, best.t))));
  // Each axis-aligned normal's factor, as the reference's dot product gives it.
  V lambert = hn::Zero(d);
  for (int axis = 0; axis < 3; ++axis) {
    for (const double sign : {-1.0, 1.0}) {
      const syn::Vec3 normal = {axis == 0 ? sign : 0.0, axis == 1 ? sign : 0.0, axis == 2 ? sign : 0.0};
      const M here = hn::And(hn::Eq(enter_axis, hn::Set(d, axis)), hn::Eq(enter_sign, hn::Set(d, sign)));
      lambert = hn::IfThenElse(here, hn::Set(d, ScalarLambert(normal)), lambert);
    }
  }
  best.t = hn::IfThenElse(hit, t_enter, best.t);
  best.surface = hn::IfThenElse(hit, hn::Set(d, static_cast<double>(id)), best.surface);
  best.lambert = hn::IfThenElse(hit, lambert, best.lambert);
}

HitV Trace(const syn::SceneState& s, syn::Vec3 o, V dx, double dy, const BoxSlab* slabs) {
  const D d;
  HitV best{hn::Set(d, syn::kWallDepth - o.z), hn::Set(d, static_cast<double>(syn::SurfaceId::Wall)),
            hn::Set(d, ScalarLambert({0, 0, -1}))};
  if (dy > 0.0) {
    const V t = hn::Set(d, (s.ground_y - o.y) / dy);
    const M hit = hn::And(hn::Gt(t, hn::Zero(d)), hn::Lt(t, best.t));
    best.t = hn::IfThenElse(hit, t, best.t);
    best.surface = hn::IfThenElse(hit, hn::Set(d, static_cast<double>(syn::SurfaceId::Ground)), best.surface);
    best.lambert = hn::IfThenElse(hit, hn::Set(d, ScalarLambert({0, -1, 0})), best.lambert);
  }
  {
    const syn::Vec3 oc = o - s.sphere_center;
    const V a = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Set(d, dy * dy)), hn::Set(d, 1.0 * 1.0));
    const V half_b = hn::Add(hn::Add(hn::Mul(hn::Set(d, oc.x), dx), hn::Set(d, oc.y * dy)),
                             hn::Set(d, oc.z * 1.0));
    const double c = syn::dot(oc, oc) - s.sphere_radius * s.sphere_radius;
    const V discriminant = hn::Sub(hn::Mul(half_b, half_b), hn::Mul(a, hn::Set(d, c)));
    const M real = hn::Ge(discriminant, hn::Zero(d));
    if (!hn::AllFalse(d, real)) {
      const V root = hn::Sqrt(hn::IfThenElse(real, discriminant, hn::Zero(d)));
      const V t = hn::Div(hn::Sub(hn::Neg(half_b), root), a);
      const M hit = hn::And(real, hn::And(hn::Gt(t, hn::Zero(d)), hn::Lt(t, best.t)));
      const V inverse_radius = hn::Set(d, 1.0 / s.sphere_radius);
      const V nx = hn::Mul(hn::Add(hn::Set(d, oc.x), hn::Mul(dx, t)), inverse_radius);
      const V ny = hn::Mul(hn::Add(hn::Set(d, oc.y), hn::Mul(hn::Set(d, dy), t)), inverse_radius);
      const V nz = hn::Mul(hn::Add(hn::Set(d, oc.z), hn::Mul(hn::Set(d, 1.0), t)), inverse_radius);
      const V dot = hn::Add(hn::Add(hn::Mul(nx, hn::Set(d, syn::kLight.x)), hn::Mul(ny, hn::Set(d, syn::kLight.y))),
                            hn::Mul(nz, hn::Set(d, syn::kLight.z)));
      best.t = hn::IfThenElse(hit, t, best.t);
      best.surface = hn::IfThenElse(hit, hn::Set(d, static_cast<double>(syn::SurfaceId::Sphere)), best.surface);
      best.lambert = hn::IfThenElse(hit, hn::Max(hn::Zero(d), dot), best.lambert);
    }
  }
  IntersectBox(s.near_post, syn::SurfaceId::NearPost, o, dx, dy, slabs[0], best);
  IntersectBox(s.floating_cube, syn::SurfaceId::FloatingCube, o, dx, dy, slabs[1], best);
  return best;
}

struct ColorV {
  V r, g, b;
};

// Brightness and colour mix of one surface at `local` (its texture coordinates), every lane.
void SurfaceTexture(const syn::SceneState& s, syn::SurfaceId id, const Vec3V& local, bool planar,
                    V pixels_per_unit, V& brightness, V& mix) {
  const D d;
  const syn::Material& m = s.materials[static_cast<int>(id)];
  brightness = hn::Add(hn::Set(d, 0.15),
                       hn::Mul(hn::Set(d, 0.9), LayeredNoise(local, planar, m.wavelength, syn::kBrightnessOctaves,
                                                             pixels_per_unit, m.noise_seed)));
  mix = Smoothstep(0.3, 0.7, LayeredNoise(local, planar, 2.0 * m.wavelength, 1, pixels_per_unit,
                                          m.noise_seed + syn::kMixSeedOffset));
}

// The wall's brightness and mix: its low-texture patch, its stripes, else its noise.
void WallTexture(const syn::SceneState& s, const Vec3V& point, V pixels_per_unit, M on_wall,
                 V& brightness, V& mix) {
  const D d;
  const Vec3V local = {point.x, point.y, hn::Zero(d)};
  SurfaceTexture(s, syn::SurfaceId::Wall, local, true, pixels_per_unit, brightness, mix);
  const auto inside = [&](const syn::Rect& r) {
    return hn::And(hn::And(hn::Ge(point.x, hn::Set(d, r.x0)), hn::Lt(point.x, hn::Set(d, r.x1))),
                   hn::And(hn::Ge(point.y, hn::Set(d, r.y0)), hn::Lt(point.y, hn::Set(d, r.y1))));
  };
  const M patch = hn::And(on_wall, inside(s.low_texture_patch));
  const M stripes = hn::AndNot(patch, hn::And(on_wall, inside(s.stripe_region)));
  if (!hn::AllFalse(d, patch)) {
    const syn::Material& m = s.materials[static_cast<int>(syn::SurfaceId::Wall)];
    const V n = ValueNoise2d(Scale(local, 1.0 / m.wavelength), m.noise_seed);
    const V flat = hn::Add(hn::Set(d, 0.62), hn::Mul(hn::Set(d, 0.012), hn::Sub(n, hn::Set(d, 0.5))));
    brightness = hn::IfThenElse(patch, flat, brightness);
    mix = hn::IfThenElse(patch, hn::Zero(d), mix);
  }
  if (!hn::AllFalse(d, stripes)) {
    HWY_ALIGN double xs[hn::MaxLanes(d)];
    HWY_ALIGN double values[hn::MaxLanes(d)];
    hn::Store(point.x, d, xs);
    for (size_t i = 0; i < hn::Lanes(d); ++i) values[i] = syn::stripe_brightness(s, xs[i]);
    brightness = hn::IfThenElse(stripes, hn::Load(d, values), brightness);
    mix = hn::IfThenElse(stripes, hn::Set(d, 1.0), mix);
  }
}

ColorV Shade(const syn::SceneState& s, syn::Vec3 o, V dx, double dy, const HitV& hit) {
  const D d;
  const Vec3V point = {hn::Add(hn::Set(d, o.x), hn::Mul(dx, hit.t)),
                       hn::Add(hn::Set(d, o.y), hn::Mul(hn::Set(d, dy), hit.t)),
                       hn::Add(hn::Set(d, o.z), hn::Mul(hn::Set(d, 1.0), hit.t))};
  const V pixels_per_unit = hn::Div(hn::Set(d, s.focal), hit.t);
  const V light_scale = hn::Add(hn::Set(d, 0.55), hn::Mul(hn::Set(d, 0.45), hit.lambert));
  ColorV out{hn::Zero(d), hn::Zero(d), hn::Zero(d)};
  for (int k = 0; k < static_cast<int>(syn::SurfaceId::Count); ++k) {
    const auto id = static_cast<syn::SurfaceId>(k);
    const M here = hn::Eq(hit.surface, hn::Set(d, k));
    if (hn::AllFalse(d, here)) continue;
    V brightness, mix;
    switch (id) {
      case syn::SurfaceId::Wall:
        WallTexture(s, point, pixels_per_unit, here, brightness, mix);
        break;
      case syn::SurfaceId::Ground:
        SurfaceTexture(s, id, {point.x, point.z, hn::Zero(d)}, true, pixels_per_unit, brightness, mix);
        break;
      case syn::SurfaceId::Sphere: {
        const Vec3V local = {hn::Sub(point.x, hn::Set(d, s.sphere_center.x)),
                             hn::Sub(point.y, hn::Set(d, s.sphere_center.y)),
                             hn::Sub(point.z, hn::Set(d, s.sphere_center.z))};
        SurfaceTexture(s, id, local, false, pixels_per_unit, brightness, mix);
        break;
      }
      default:
        SurfaceTexture(s, id, point, false, pixels_per_unit, brightness, mix);
        break;
    }
    const syn::Material& m = s.materials[k];
    const V light = hn::Mul(brightness, light_scale);
    out.r = hn::IfThenElse(here, hn::Mul(light, Lerp(hn::Set(d, m.first.r), hn::Set(d, m.second.r), mix)), out.r);
    out.g = hn::IfThenElse(here, hn::Mul(light, Lerp(hn::Set(d, m.first.g), hn::Set(d, m.second.g), mix)), out.g);
    out.b = hn::IfThenElse(here, hn::Mul(light, Lerp(hn::Set(d, m.first.b), hn::Set(d, m.second.b), mix)), out.b);
  }
  return out;
}

// floor(v * 255 + 0.5) clamped to 0..255, as the reference's to_byte.
V ToByteValue(V v) {
  const D d;
  return Clamp(hn::Floor(hn::Add(hn::Mul(v, hn::Set(d, 255.0)), hn::Set(d, 0.5))), 0.0, 255.0);
}

// What depends on a pixel's column and not its row, for the left (-0.25) and right (+0.25)
// subsamples: the rays' x direction and the boxes' x-slab parameters, as the scalar code
// computes them per ray; padded to whole vectors.
struct ViewTables {
  std::vector<double> dx[2];
  std::vector<double> box_t0[2][2], box_t1[2][2];  // [box][side]
};

ViewTables BuildTables(const syn::SceneState& s, syn::Vec3 camera, int padded_width) {
  ViewTables tables;
  const syn::Box* boxes[2] = {&s.near_post, &s.floating_cube};
  for (int side = 0; side < 2; ++side) {
    tables.dx[side].resize(padded_width);
    for (int b = 0; b < 2; ++b) {
      tables.box_t0[b][side].resize(padded_width);
      tables.box_t1[b][side].resize(padded_width);
    }
    for (int x = 0; x < padded_width; ++x) {
      const double u = x + (side ? 0.25 : -0.25);
      const double dx = (u - s.cx) / s.focal;
      tables.dx[side][x] = dx;
      for (int b = 0; b < 2; ++b) {
        tables.box_t0[b][side][x] = (boxes[b]->lo.x - camera.x) / dx;
        tables.box_t1[b][side][x] = (boxes[b]->hi.x - camera.x) / dx;
      }
    }
  }
  return tables;
}

void RenderViewRows(const syn::SceneState& s, syn::Vec3 camera, ImageRgb8& image) {
  const D d;
  const int n = static_cast<int>(hn::Lanes(d));
  const ViewTables tables = BuildTables(s, camera, (s.width + n - 1) / n * n);
  parallel_for(0, s.height, [&](int y) {
    HWY_ALIGN double r[hn::MaxLanes(d)], g[hn::MaxLanes(d)], b[hn::MaxLanes(d)];
    Rgb8* row = image.row(y);
    for (int x0 = 0; x0 < s.width; x0 += n) {
      ColorV sum{hn::Zero(d), hn::Zero(d), hn::Zero(d)};
      for (int sub = 0; sub < 4; ++sub) {
        const int side = sub & 1;
        const double v = static_cast<double>(y) + ((sub & 2) ? 0.25 : -0.25);
        const V dx = hn::LoadU(d, tables.dx[side].data() + x0);
        const double dy = (v - s.cy) / s.focal;
        const BoxSlab slabs[2] = {
            {hn::LoadU(d, tables.box_t0[0][side].data() + x0), hn::LoadU(d, tables.box_t1[0][side].data() + x0)},
            {hn::LoadU(d, tables.box_t0[1][side].data() + x0), hn::LoadU(d, tables.box_t1[1][side].data() + x0)}};
        const ColorV c = Shade(s, camera, dx, dy, Trace(s, camera, dx, dy, slabs));
        sum.r = hn::Add(sum.r, c.r);
        sum.g = hn::Add(sum.g, c.g);
        sum.b = hn::Add(sum.b, c.b);
      }
      const V quarter = hn::Set(d, 0.25);
      hn::Store(ToByteValue(hn::Mul(sum.r, quarter)), d, r);
      hn::Store(ToByteValue(hn::Mul(sum.g, quarter)), d, g);
      hn::Store(ToByteValue(hn::Mul(sum.b, quarter)), d, b);
      const int lanes = std::min(n, s.width - x0);
      for (int i = 0; i < lanes; ++i) {
        row[x0 + i] = Rgb8{static_cast<uint8_t>(r[i]), static_cast<uint8_t>(g[i]), static_cast<uint8_t>(b[i])};
      }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(RenderViewRows);

SyntheticFrame fast_synthetic_views(const SyntheticScene& scene, int frame_index,
                                    BlockPool* views_pool) {
  const synthetic::SceneState state = synthetic::build_scene(scene.config(), frame_index);
  SyntheticFrame frame;
  frame.index = frame_index;
  frame.timestamp_s = frame_index / 30.0;
  // Every pixel is written by RenderViewRows.
  frame.left = pooled_image<ImageRgb8>(views_pool, state.width, state.height);
  frame.right = pooled_image<ImageRgb8>(views_pool, state.width, state.height);
  HWY_DYNAMIC_DISPATCH(RenderViewRows)(state, state.left_camera, frame.left);
  HWY_DYNAMIC_DISPATCH(RenderViewRows)(state, state.left_camera + synthetic::Vec3{state.baseline, 0, 0},
                                       frame.right);
  return frame;
}

}  // namespace sv
#endif  // HWY_ONCE
