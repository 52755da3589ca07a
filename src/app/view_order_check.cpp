#include "src/app/view_order_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sv {
namespace {

constexpr int kMaxWidth = 400;
constexpr int kRadius = 4;  // 9x9 blocks
constexpr int kBlock = 2 * kRadius + 1;
constexpr int kStep = 6;    // block centres this far apart
constexpr double kMinTexture = 2.0;  // mean horizontal gray step inside a block
constexpr double kClearRatio = 0.7;
constexpr int kMinVotes = 20;
constexpr int kMajority = 3;

ImageU8 halve(const ImageU8& image) {
  ImageU8 half(image.width() / 2, image.height() / 2);
  for (int y = 0; y < half.height(); ++y) {
    const uint8_t* a = image.row(2 * y);
    const uint8_t* b = image.row(2 * y + 1);
    for (int x = 0; x < half.width(); ++x) {
      half.at(x, y) = static_cast<uint8_t>((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) / 4);
    }
  }
  return half;
}

using Block = std::array<float, kBlock * kBlock>;

// The block centred at (cx, cy) less its mean.
Block zero_mean_block(const ImageU8& image, int cx, int cy) {
  Block block;
  float sum = 0.0f;
  for (int dy = -kRadius, i = 0; dy <= kRadius; ++dy) {
    const uint8_t* row = image.row(cy + dy);
    for (int dx = -kRadius; dx <= kRadius; ++dx, ++i) {
      block[i] = row[cx + dx];
      sum += block[i];
    }
  }
  const float mean = sum / static_cast<float>(block.size());
  for (float& v : block) v -= mean;
  return block;
}

double horizontal_texture(const ImageU8& image, int cx, int cy) {
  int sum = 0;
  for (int dy = -kRadius; dy <= kRadius; ++dy) {
    const uint8_t* row = image.row(cy + dy);
    for (int dx = -kRadius; dx < kRadius; ++dx) sum += std::abs(row[cx + dx + 1] - row[cx + dx]);
  }
  return static_cast<double>(sum) / (kBlock * (kBlock - 1));
}

float block_cost(const Block& a, const Block& b) {
  float cost = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) cost += std::fabs(a[i] - b[i]);
  return cost;
}

}  // namespace

ViewOrderCheck check_view_order(const ImageRgb8& left, const ImageRgb8& right, int search) {
  ViewOrderCheck result;
  if (left.empty() || !left.same_size(right)) return result;
  ImageU8 l = to_gray(left), r = to_gray(right);
  int factor = 1;
  while (l.width() > kMaxWidth && l.height() >= 2 * kBlock) {
    l = halve(l);
    r = halve(r);
    factor *= 2;
  }
  const int w = l.width(), h = l.height();
  const int range = std::min((search + factor - 1) / factor, (w - kBlock) / 3);
  if (range < 2 || h < kBlock) return result;

  for (int cy = kRadius; cy + kRadius < h; cy += kStep) {
    for (int cx = range + kRadius; cx + range + kRadius < w; cx += kStep) {
      if (horizontal_texture(l, cx, cy) < kMinTexture) continue;
      ++result.tested;
      const Block reference = zero_mean_block(l, cx, cy);
      float best_positive = std::numeric_limits<float>::max();
      float best_negative = std::numeric_limits<float>::max();
      for (int d = -range; d <= range; ++d) {
        if (d == 0) continue;
        // Disparity d: the left view's point at x shows in the right view at x - d.
        const float cost = block_cost(reference, zero_mean_block(r, cx - d, cy));
        float& best = d > 0 ? best_positive : best_negative;
        best = std::min(best, cost);
      }
      if (best_positive < kClearRatio * best_negative) ++result.positive;
      if (best_negative < kClearRatio * best_positive) ++result.negative;
    }
  }
  const int votes = result.positive + result.negative;
  if (votes < kMinVotes) return result;
  if (result.negative > kMajority * result.positive) result.order = ViewOrder::Swapped;
  if (result.positive > kMajority * result.negative) result.order = ViewOrder::AsExpected;
  return result;
}

}  // namespace sv
