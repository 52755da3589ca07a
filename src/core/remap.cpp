// Bilinear remap through float maps: the rectification of a raw view (StereoRectifier's maps).
//
// EXACT DEFINITION (cuda/remap.cu reproduces it bit for bit; it is OpenCV 4's cv::remap with
// CV_32FC1 maps, INTER_LINEAR and BORDER_CONSTANT, which tests/io/remap_opencv_test.cpp checks)
//   Output pixel (x, y) of a W x H raw image, with mx = map_x(x, y), my = map_y(x, y):
//   1. Quantize to 1/32 px: X = round(mx * 32), Y = round(my * 32), the float product rounded
//      to the nearest integer, ties to even. A product that is not finite or not within
//      (-2^31, 2^31) makes the pixel the border value.
//   2. x0 = floor(X / 32), fx = X - 32 x0 (0..31); likewise y0, fy.
//   3. The four samples v0 = raw(x0, y0), v1 = raw(x0 + 1, y0), v2 = raw(x0, y0 + 1),
//      v3 = raw(x0 + 1, y0 + 1); a sample outside the raw image is the border value B
//      (0 for integer images, NaN for float), whatever its weight.
//   4. 8-bit (gray, and each channel of RGB on its own): integer weights
//        w0 = 32 (32 - fx)(32 - fy), w1 = 32 fx (32 - fy), w2 = 32 (32 - fx) fy, w3 = 32 fx fy,
//      except fx = fy = 0, where (w0, w1, w2, w3) = (32767, 0, 0, 1) (OpenCV's 16-bit weight
//      table cannot hold 32768 and moves the missing unit to w3);
//      out = (w0 v0 + w1 v1 + w2 v2 + w3 v3 + 16384) >> 15.
//   5. 16-bit and float: float weights W_i = w_i / 32768 computed without the exception
//      (W = (1, 0, 0, 0) at fx = fy = 0; every W_i is exact in float);
//      s = ((v0 W0 + v1 W1) + v2 W2) + v3 W3, every product and sum rounded to float (no fused
//      multiply-add). 16-bit: out = s rounded to the nearest integer, ties to even, clamped to
//      0..65535. Float: out = s, so a NaN sample (the border included) makes out NaN even at
//      weight 0, as does an infinite sample at weight 0.
#include "src/core/remap.h"

#include <limits>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/core/remap_math.h"

namespace sv {
namespace {

constexpr int kMaxRawSide = 32767;  // OpenCV's 16-bit cell coordinates

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

template <typename T>
void require_remappable(const Image<T>& raw, const ImageF32& map_x, const ImageF32& map_y) {
  if (map_x.empty() || !map_x.same_size(map_y)) {
    throw InputError("remap: the x and y maps must be non-empty and of one size, got " +
                     size_text(map_x.width(), map_x.height()) + " and " +
                     size_text(map_y.width(), map_y.height()));
  }
  if (raw.width() > kMaxRawSide || raw.height() > kMaxRawSide) {
    throw InputError("remap: the raw image " + size_text(raw.width(), raw.height()) +
                     " is larger than " + std::to_string(kMaxRawSide) + " on a side");
  }
}

// Step 3: the four samples of a tap, channel by channel through `value`.
template <typename T, typename Value, typename Out>
void gather(const Image<T>& raw, const remap_math::Tap& tap, Value value, Out border, Out v[4]) {
  const int xs[2] = {tap.x0, tap.x0 + 1};
  const int ys[2] = {tap.y0, tap.y0 + 1};
  for (int i = 0; i < 4; ++i) {
    const int x = xs[i & 1], y = ys[i >> 1];
    const bool inside = !tap.outside && x >= 0 && y >= 0 && x < raw.width() && y < raw.height();
    v[i] = inside ? static_cast<Out>(value(raw.at(x, y))) : border;
  }
}

// Runs `pixel(tap)` for every output pixel, rows in parallel.
template <typename T, typename Pixel>
Image<T> remap_rows(const ImageF32& map_x, const ImageF32& map_y, Pixel pixel) {
  Image<T> out(map_x.width(), map_x.height());
  parallel_for(0, out.height(), [&](int y) {
    const float* mx = map_x.row(y);
    const float* my = map_y.row(y);
    T* row = out.row(y);
    for (int x = 0; x < out.width(); ++x) row[x] = pixel(remap_math::make_tap(mx[x], my[x]));
  });
  return out;
}

// Step 4 for one 8-bit channel.
template <typename T, typename Channel>
uint8_t fixed_channel(const Image<T>& raw, const remap_math::Tap& tap, const int w[4],
                      Channel channel) {
  int v[4];
  gather(raw, tap, channel, 0, v);
  return remap_math::blend_fixed(v, w);
}

// Step 5: the float sum of a 16-bit or float image.
template <typename T>
float float_sum(const Image<T>& raw, const remap_math::Tap& tap, float border) {
  float w[4], v[4];
  remap_math::float_weights(tap.fx, tap.fy, w);
  gather(raw, tap, [](T value) { return static_cast<float>(value); }, border, v);
  return remap_math::blend_float(v, w);
}

}  // namespace

ImageU8 remap_bilinear(const ImageU8& raw, const ImageF32& map_x, const ImageF32& map_y) {
  require_remappable(raw, map_x, map_y);
  return remap_rows<uint8_t>(map_x, map_y, [&](const remap_math::Tap& tap) {
    int w[4];
    remap_math::fixed_weights(tap.fx, tap.fy, w);
    return fixed_channel(raw, tap, w, [](uint8_t v) { return v; });
  });
}

ImageRgb8 remap_bilinear(const ImageRgb8& raw, const ImageF32& map_x, const ImageF32& map_y) {
  require_remappable(raw, map_x, map_y);
  return remap_rows<Rgb8>(map_x, map_y, [&](const remap_math::Tap& tap) {
    int w[4];
    remap_math::fixed_weights(tap.fx, tap.fy, w);
    Rgb8 out;
    out.r = fixed_channel(raw, tap, w, [](const Rgb8& p) { return p.r; });
    out.g = fixed_channel(raw, tap, w, [](const Rgb8& p) { return p.g; });
    out.b = fixed_channel(raw, tap, w, [](const Rgb8& p) { return p.b; });
    return out;
  });
}

ImageU16 remap_bilinear(const ImageU16& raw, const ImageF32& map_x, const ImageF32& map_y) {
  require_remappable(raw, map_x, map_y);
  return remap_rows<uint16_t>(map_x, map_y, [&](const remap_math::Tap& tap) {
    return remap_math::round_to_u16(float_sum(raw, tap, 0.0f));
  });
}

ImageF32 remap_bilinear(const ImageF32& raw, const ImageF32& map_x, const ImageF32& map_y) {
  require_remappable(raw, map_x, map_y);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return remap_rows<float>(map_x, map_y, [&](const remap_math::Tap& tap) {
    return float_sum(raw, tap, nan);
  });
}

}  // namespace sv
