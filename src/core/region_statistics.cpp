#include "src/core/region_statistics.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "src/core/error.h"

namespace sv {

namespace {

struct Summary {
  double mean = 0.0, median = 0.0, std_dev = 0.0;
};

// Mean and population deviation in two passes (no cancellation on large offsets); `values`
// is reordered by the median's nth_element.
Summary summarize(std::vector<double>& values) {
  Summary s;
  if (values.empty()) return s;
  double sum = 0.0;
  for (const double v : values) sum += v;
  s.mean = sum / values.size();
  double squares = 0.0;
  for (const double v : values) squares += (v - s.mean) * (v - s.mean);
  s.std_dev = std::sqrt(squares / values.size());
  const auto middle = values.begin() + (values.size() - 1) / 2;
  std::nth_element(values.begin(), middle, values.end());
  s.median = *middle;
  return s;
}

// Solves the 3x3 system m z = r by Gaussian elimination with partial pivoting; false when
// (nearly) singular.
bool solve3(double m[3][3], double r[3], double z[3]) {
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int row = col + 1; row < 3; ++row) {
      if (std::fabs(m[row][col]) > std::fabs(m[pivot][col])) pivot = row;
    }
    if (std::fabs(m[pivot][col]) < 1e-9) return false;
    std::swap(m[col], m[pivot]);
    std::swap(r[col], r[pivot]);
    for (int row = col + 1; row < 3; ++row) {
      const double f = m[row][col] / m[col][col];
      for (int k = col; k < 3; ++k) m[row][k] -= f * m[col][k];
      r[row] -= f * r[col];
    }
  }
  for (int row = 2; row >= 0; --row) {
    double v = r[row];
    for (int k = row + 1; k < 3; ++k) v -= m[row][k] * z[k];
    z[row] = v / m[row][row];
  }
  return true;
}

// Fits d = a x + b y + c with coordinates taken about the rectangle's centre, so the normal
// equations stay well conditioned for rectangles far from the origin.
void fit_plane(const ImageF32& disparity, const RegionRect& r, RegionStatistics& s) {
  const double cx = r.x + 0.5 * (r.width - 1), cy = r.y + 0.5 * (r.height - 1);
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, rhs[3] = {0, 0, 0};
  for (int y = r.y; y < r.y + r.height; ++y) {
    for (int x = r.x; x < r.x + r.width; ++x) {
      const float d = disparity.at(x, y);
      if (!std::isfinite(d)) continue;
      const double u[3] = {x - cx, y - cy, 1.0};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) m[i][j] += u[i] * u[j];
        rhs[i] += u[i] * d;
      }
    }
  }
  double z[3] = {0, 0, 0};
  if (s.valid < 3 || !solve3(m, rhs, z)) return;
  double squares = 0.0;
  for (int y = r.y; y < r.y + r.height; ++y) {
    for (int x = r.x; x < r.x + r.width; ++x) {
      const float d = disparity.at(x, y);
      if (!std::isfinite(d)) continue;
      const double residual = d - (z[0] * (x - cx) + z[1] * (y - cy) + z[2]);
      squares += residual * residual;
    }
  }
  s.plane_fitted = true;
  s.plane_a = z[0];
  s.plane_b = z[1];
  s.plane_c = z[2] - z[0] * cx - z[1] * cy;
  s.plane_rms = std::sqrt(squares / s.valid);
}

}  // namespace

RegionRect clip_rect(const RegionRect& rect, int image_width, int image_height) {
  const long long x0 = std::max<long long>(rect.x, 0), y0 = std::max<long long>(rect.y, 0);
  const long long x1 = std::min<long long>(static_cast<long long>(rect.x) + rect.width, image_width);
  const long long y1 = std::min<long long>(static_cast<long long>(rect.y) + rect.height, image_height);
  if (x1 <= x0 || y1 <= y0) return RegionRect{};
  return RegionRect{static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0),
                   static_cast<int>(y1 - y0)};
}

RegionStatistics region_statistics(const ImageF32& disparity, const RegionRect& rect,
                                   double focal_px, double baseline_m,
                                   const ImageF32* ground_truth) {
  const bool truth = ground_truth != nullptr && !ground_truth->empty();
  if (truth && !ground_truth->same_size(disparity)) {
    throw InputError("region statistics: the ground truth is " +
                     std::to_string(ground_truth->width()) + "x" +
                     std::to_string(ground_truth->height()) + " but the disparity is " +
                     std::to_string(disparity.width()) + "x" + std::to_string(disparity.height()));
  }
  RegionStatistics s;
  s.rect = clip_rect(rect, disparity.width(), disparity.height());
  if (s.rect.empty()) return s;
  const RegionRect& r = s.rect;
  s.pixels = static_cast<long long>(r.width) * r.height;
  s.has_depth = focal_px > 0.0 && baseline_m > 0.0;
  s.has_truth = truth;

  std::vector<double> values, depths;
  long long bad_1 = 0, bad_2 = 0;
  for (int y = r.y; y < r.y + r.height; ++y) {
    for (int x = r.x; x < r.x + r.width; ++x) {
      const float d = disparity.at(x, y);
      const bool valid = std::isfinite(d);
      if (valid) {
        values.push_back(d);
        if (s.has_depth && d > 0.0f) depths.push_back(focal_px * baseline_m / d);
      }
      if (!truth) continue;
      const float t = ground_truth->at(x, y);
      if (!std::isfinite(t)) continue;
      ++s.truth_pixels;
      const double error = valid ? std::fabs(static_cast<double>(d) - static_cast<double>(t)) : 0.0;
      bad_1 += !valid || error > 1.0;
      bad_2 += !valid || error > 2.0;
    }
  }
  s.valid = static_cast<long long>(values.size());
  s.valid_fraction = static_cast<double>(s.valid) / static_cast<double>(s.pixels);
  s.depth_pixels = static_cast<long long>(depths.size());
  if (s.truth_pixels > 0) {
    s.bad_1 = 100.0 * bad_1 / s.truth_pixels;
    s.bad_2 = 100.0 * bad_2 / s.truth_pixels;
  }
  fit_plane(disparity, r, s);
  const Summary disparity_summary = summarize(values);
  s.mean = disparity_summary.mean;
  s.median = disparity_summary.median;
  s.std_dev = disparity_summary.std_dev;
  const Summary depth_summary = summarize(depths);
  s.mean_depth = depth_summary.mean;
  s.median_depth = depth_summary.median;
  s.std_depth = depth_summary.std_dev;
  return s;
}

}  // namespace sv
