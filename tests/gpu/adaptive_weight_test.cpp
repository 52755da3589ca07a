// ESAW / ESMP on the GPU (cuda/adaptive_weight_stages.h and the CudaEngine) against the CPU
// reference (truncated_ad_cost, esmp_messages, esaw_aggregation, esmp_aggregation, CpuEngine).
//
// TOLERANCE. The matching cost (one product) and the message transform (additions and minima)
// are compared bit for bit: IEEE arithmetic rounds them identically everywhere. The aggregation
// kernels evaluate the reference's expressions operation for operation (no FMA contraction,
// IEEE division, the same host-built weight table; src/core compiles esaw_aggregation.cpp with
// -ffp-contract=off), so they are expected to match bit for bit as well, and each test prints
// how many values do. What the tests require is weaker, so that a host that still fuses
// a * b + c in the reference (another compiler, other flags) passes for the right reason:
//   float storage:  |gpu - cpu| <= 1e-4 * max(1, |cpu|) for every aggregated cost.
//       A fused multiply-add differs from the separate rounding by at most 1 ulp (6e-8
//       relative) per pass; each pass is a convex combination, so such differences do not
//       grow, they add: 2T <= 32 passes plus the messages stay below 3e-6, 30x under the bound.
//   half storage:   |gpu - cpu| <= 2e-3 * max(1, |cpu|).
//       A 1-ulp float difference that straddles a half rounding boundary becomes one half ulp
//       (2^-11 = 4.9e-4 relative); the bound allows four such flips to add up along the passes.
//   disparities:    identical on at least 99.5 % of the pixels (in practice all of them), not
//       100 %: wherever two candidates' aggregated costs lie within the tolerance above (flat
//       or repetitive texture, where many candidates nearly tie) the winner may flip, and one
//       flipped pixel also changes the 3x3 median of its neighbours and their LR check.
// Colour weights (a colour guide) follow the same rules: the guide distance is an integer that
// indexes the same weight table, so everything after it is the gray case's arithmetic.
// Every device buffer is surrounded by poison (NaN for costs, 0xA5 for images): a kernel reading
// outside its image or volume turns a result into NaN or a wrong cost and fails the comparison.
#include <gtest/gtest.h>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cuda/adaptive_weight_stages.h"
#include "cuda/cuda_engine.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_aggregation.h"
#include "src/core/esmp_messages.h"
#include "src/core/half_float.h"
#include "src/core/synthetic_scene.h"
#include "src/core/truncated_ad_cost.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

constexpr double kFloatTolerance = 1e-4;
constexpr double kHalfTolerance = 2e-3;
constexpr double kMinimumSameDisparities = 0.995;

// A device array whose every byte starts as 0xFF (NaN as float and as half), with NaN guards
// either side: unwritten elements and reads past the ends both show up as NaN.
template <typename T>
class PoisonedDeviceArray {
 public:
  static constexpr size_t kGuard = 1024;  // elements each side: more than one row of a volume

  explicit PoisonedDeviceArray(size_t count) : count_(count) {
    SV_CUDA_CHECK(cudaMalloc(&base_, (count + 2 * kGuard) * sizeof(T)));
    SV_CUDA_CHECK(cudaMemset(base_, 0xFF, (count + 2 * kGuard) * sizeof(T)));
  }
  ~PoisonedDeviceArray() { cudaFree(base_); }
  PoisonedDeviceArray(const PoisonedDeviceArray&) = delete;
  PoisonedDeviceArray& operator=(const PoisonedDeviceArray&) = delete;

  T* data() { return base_ + kGuard; }
  void upload(const std::vector<T>& host) {
    ASSERT_EQ(host.size(), count_);
    SV_CUDA_CHECK(cudaMemcpy(data(), host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    SV_CUDA_CHECK(cudaMemcpy(host.data(), base_ + kGuard, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  bool guards_intact() const {
    std::vector<unsigned char> guard(kGuard * sizeof(T)), expected(kGuard * sizeof(T), 0xFF);
    SV_CUDA_CHECK(cudaMemcpy(guard.data(), base_, guard.size(), cudaMemcpyDeviceToHost));
    if (guard != expected) return false;
    SV_CUDA_CHECK(cudaMemcpy(guard.data(), base_ + kGuard + count_, guard.size(), cudaMemcpyDeviceToHost));
    return guard == expected;
  }

 private:
  T* base_ = nullptr;
  size_t count_ = 0;
};

// Half volumes travel as their bit patterns.
__half* as_half(uint16_t* p) { return reinterpret_cast<__half*>(p); }

std::vector<uint16_t> to_half_bits(const std::vector<float>& values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i) bits[i] = float_to_half_bits(values[i]);
  return bits;
}

std::vector<float> from_half_bits(const std::vector<uint16_t>& bits) {
  std::vector<float> values(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) values[i] = half_bits_to_float(bits[i]);
  return values;
}

// Element-wise agreement of two volumes laid out [y][x][k]: every value within the tolerance
// (NaN never is), and how many are bit-identical, for the log.
::testing::AssertionResult agree(const std::vector<float>& gpu, const std::vector<float>& cpu,
                                 double tolerance, int width, int count, const std::string& what) {
  if (gpu.size() != cpu.size()) return ::testing::AssertionFailure() << what << ": sizes differ";
  size_t identical = 0, outside = 0, first = 0;
  double worst = 0.0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    identical += std::memcmp(&gpu[i], &cpu[i], sizeof(float)) == 0;
    const double error = std::abs(static_cast<double>(gpu[i]) - cpu[i]);
    const double bound = tolerance * std::max(1.0, std::abs(static_cast<double>(cpu[i])));
    if (!(error <= bound)) {
      if (outside++ == 0) first = i;
    } else {
      worst = std::max(worst, error / std::max(1.0, std::abs(static_cast<double>(cpu[i]))));
    }
  }
  std::cout << "  " << what << ": " << identical << " of " << gpu.size()
            << " values bit-identical, largest scaled difference " << worst << "\n";
  if (outside == 0) return ::testing::AssertionSuccess();
  const size_t pixel = first / count;
  return ::testing::AssertionFailure()
         << what << ": " << outside << " of " << gpu.size() << " values outside " << tolerance
         << "; first at x=" << pixel % width << " y=" << pixel / width << " k=" << first % count
         << ": gpu " << gpu[first] << " cpu " << cpu[first];
}

::testing::AssertionResult bit_identical(const std::vector<float>& gpu, const std::vector<float>& cpu,
                                         int width, int count, const std::string& what) {
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (std::memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0 && differ++ == 0) first = i;
  }
  if (gpu.size() == cpu.size() && differ == 0) return ::testing::AssertionSuccess();
  const size_t pixel = first / count;
  return ::testing::AssertionFailure()
         << what << ": " << differ << " of " << cpu.size() << " differ; first at x=" << pixel % width
         << " y=" << pixel / width << " k=" << first % count << ": gpu " << gpu[first] << " cpu "
         << cpu[first];
}

// A per-pixel search range like the pyramid's: bases vary between neighbours, so taps must
// shift their candidate index (and drop candidates the neighbour lacks).
ImageI16 varying_bases(int width, int height, int lowest, int spread, uint32_t seed) {
  ImageI16 bases(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      bases.at(x, y) = static_cast<int16_t>(lowest + (x / 3 + y / 2 + test::hash_value(x, y, seed) % 3) % spread);
    }
  }
  return bases;
}

// The volume's range on the device (a per-pixel base uploaded into `bases`).
cuda::DeviceSearchRange device_range(const SearchRange& range,
                                     std::unique_ptr<GuardedDeviceArray<int16_t>>& bases) {
  if (range.is_uniform()) return {range.uniform_base(), nullptr, range.count()};
  const ImageI16& b = range.per_pixel_base();
  bases = std::make_unique<GuardedDeviceArray<int16_t>>(b.size(), b.data());
  return {0, bases->data(), range.count()};
}

// A colour guide whose channels are independent textures: its colour distances differ from the
// gray distances of its to_gray almost everywhere.
ImageRgb8 random_colour_texture(int width, int height, uint32_t seed) {
  const ImageU8 r = test::random_texture(width, height, seed, 1);
  const ImageU8 g = test::random_texture(width, height, seed + 1, 1);
  const ImageU8 b = test::random_texture(width, height, seed + 2, 1);
  ImageRgb8 rgb(width, height);
  for (size_t i = 0; i < rgb.size(); ++i) rgb.data()[i] = Rgb8{r.data()[i], g.data()[i], b.data()[i]};
  return rgb;
}

// The guide on the device: the gray image, or the colour image when `colour` is set.
struct DeviceGuide {
  DeviceGuide(const ImageU8& gray, const ImageRgb8* colour)
      : bytes(colour ? colour->size() * sizeof(Rgb8) : gray.size(),
              colour ? reinterpret_cast<const uint8_t*>(colour->data()) : gray.data()),
        is_colour(colour != nullptr) {}
  cuda::WeightGuide get() {
    return is_colour ? cuda::WeightGuide::colour(reinterpret_cast<const Rgb8*>(bytes.data()))
                     : cuda::WeightGuide(bytes.data());
  }
  GuardedDeviceArray<uint8_t> bytes;
  bool is_colour;
};

// A cost volume of random values in [0, 2) (rounded to half for half storage).
CostVolume<float> random_volume(int width, int height, const SearchRange& range, uint32_t seed,
                                bool half) {
  CostVolume<float> volume(width, height, range);
  for (size_t i = 0; i < volume.costs().size(); ++i) {
    const float v = (test::hash_value(static_cast<uint32_t>(i), static_cast<uint32_t>(i >> 16), seed) +
                     test::hash_value(static_cast<uint32_t>(i), 7, seed) / 256.0f) / 128.0f;
    volume.costs()[i] = half ? round_to_half(v) : v;
  }
  return volume;
}

// ---- matching cost ----------------------------------------------------------------------------

struct CostCase {
  int width, height, base, count;
  bool per_pixel;
};

TEST(TruncatedAdCostGpu, EqualsTheCpuBitForBitAsFloatAndAsHalf) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const CostCase c : {CostCase{33, 17, -3, 16, false}, CostCase{33, 17, 0, 64, false},
                           CostCase{641, 479, 0, 37, false}, CostCase{97, 31, 0, 9, true}}) {
    const ImageU8 left = test::random_texture(c.width, c.height, 11, 1);
    const ImageU8 right = test::random_texture(c.width, c.height, 12, 1);
    const SearchRange range = c.per_pixel ? SearchRange(varying_bases(c.width, c.height, -2, 20, 3), c.count)
                                          : SearchRange(c.base, c.count);
    const float lambda = 0.15f, tau = 12.0f;
    const CostVolume<float> expected = truncated_ad_cost_volume(left, right, range, lambda, tau);
    CostVolume<float> expected_half = expected;
    round_to_half(expected_half);

    GuardedDeviceArray<uint8_t> l(left.size(), left.data()), r(right.size(), right.data());
    std::unique_ptr<GuardedDeviceArray<int16_t>> bases;
    const cuda::DeviceSearchRange d_range = device_range(range, bases);
    const size_t n = expected.costs().size();
    PoisonedDeviceArray<float> costs(n);
    PoisonedDeviceArray<uint16_t> halves(n);
    cuda::truncated_ad_cost_volume(l.data(), r.data(), c.width, c.height, d_range, lambda, tau, costs.data(), nullptr);
    cuda::truncated_ad_cost_volume(l.data(), r.data(), c.width, c.height, d_range, lambda, tau, as_half(halves.data()), nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    const std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + " D" + std::to_string(c.count);
    EXPECT_TRUE(bit_identical(costs.download(), expected.costs(), c.width, c.count, name + " float"));
    EXPECT_TRUE(bit_identical(from_half_bits(halves.download()), expected_half.costs(), c.width, c.count, name + " half"));
    EXPECT_TRUE(costs.guards_intact() && halves.guards_intact() && l.guards_intact()) << name;
  }
  GuardedDeviceArray<uint8_t> image(16);
  PoisonedDeviceArray<float> costs(64);
  EXPECT_THROW(cuda::truncated_ad_cost_volume(image.data(), image.data(), 4, 4, {0, nullptr, 4}, 0.0f, 12.0f, costs.data(), nullptr), InputError);
  EXPECT_THROW(cuda::truncated_ad_cost_volume(image.data(), image.data(), 4, 4, {0, nullptr, 4}, 1.0f, -1.0f, costs.data(), nullptr), InputError);
}

// ---- messages ---------------------------------------------------------------------------------

TEST(CostToMessageGpu, EqualsTheCpuBitForBitAsFloatAndAsHalf) {
  SV_REQUIRE_CUDA_DEVICE();
  const int width = 33, height = 17;
  for (int count : {1, 2, 5, 37, 64, 256}) {
    for (bool half : {false, true}) {
      const CostVolume<float> input = random_volume(width, height, SearchRange(0, count), count, half);
      MessageSettings settings;
      settings.slope = 0.07f;  // not a power of two: every addition rounds
      settings.cap = 0.0375f * count;
      CostVolume<float> expected = input;
      cost_to_message(expected, settings);
      if (half) round_to_half(expected);

      const size_t n = input.costs().size();
      std::vector<float> actual;
      if (half) {
        PoisonedDeviceArray<uint16_t> volume(n);
        volume.upload(to_half_bits(input.costs()));
        cuda::cost_to_message(as_half(volume.data()), width, height, count, settings, nullptr);
        SV_CUDA_CHECK(cudaDeviceSynchronize());
        actual = from_half_bits(volume.download());
        EXPECT_TRUE(volume.guards_intact());
      } else {
        PoisonedDeviceArray<float> volume(n);
        volume.upload(input.costs());
        cuda::cost_to_message(volume.data(), width, height, count, settings, nullptr);
        SV_CUDA_CHECK(cudaDeviceSynchronize());
        actual = volume.download();
        EXPECT_TRUE(volume.guards_intact());
      }
      EXPECT_TRUE(bit_identical(actual, expected.costs(), width, count,
                                "D" + std::to_string(count) + (half ? " half" : " float")));
      if (count > 2) {
        EXPECT_NE(expected.costs(), input.costs());  // the transform did something
      }
    }
  }
  PoisonedDeviceArray<float> volume(4 * 4 * 300);
  MessageSettings negative;
  negative.slope = -1.0f;
  EXPECT_THROW(cuda::cost_to_message(volume.data(), 4, 4, 8, negative, nullptr), InputError);
  EXPECT_THROW(cuda::cost_to_message(volume.data(), 4, 4, 300, MessageSettings{}, nullptr), InputError);
}

// ---- one pass ---------------------------------------------------------------------------------

enum class Storage { Float, Half, HalfToFloat };

const char* storage_name(Storage s) {
  return s == Storage::Float ? "float" : s == Storage::Half ? "half" : "half->float";
}

// One esaw_pass on the device, optionally with the fused message transform after it, weighing
// by `colour` when it is given, else by `guide`.
std::vector<float> device_pass(const CostVolume<float>& input, const ImageU8& guide,
                               const ImageRgb8* colour, int step, PassDirection direction,
                               const EsawSettings& s, const MessageSettings* messages,
                               Storage storage) {
  const int width = input.width(), height = input.height();
  const size_t n = input.costs().size();
  DeviceGuide g(guide, colour);
  std::unique_ptr<GuardedDeviceArray<int16_t>> bases;
  const cuda::DeviceSearchRange range = device_range(input.range(), bases);
  std::vector<float> result;
  if (storage == Storage::Float) {
    PoisonedDeviceArray<float> in(n), out(n);
    in.upload(input.costs());
    cuda::esaw_pass(in.data(), out.data(), g.get(), width, height, range, step, direction, s.gamma_c, s.gamma_p, messages, nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    result = out.download();
    EXPECT_TRUE(in.guards_intact() && out.guards_intact());
  } else {
    PoisonedDeviceArray<uint16_t> in(n), out_half(n);
    PoisonedDeviceArray<float> out_float(n);
    in.upload(to_half_bits(input.costs()));
    if (storage == Storage::Half) {
      cuda::esaw_pass(as_half(in.data()), as_half(out_half.data()), g.get(), width, height, range, step, direction, s.gamma_c, s.gamma_p, messages, nullptr);
    } else {
      cuda::esaw_pass(as_half(in.data()), out_float.data(), g.get(), width, height, range, step, direction, s.gamma_c, s.gamma_p, messages, nullptr);
    }
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    result = storage == Storage::Half ? from_half_bits(out_half.download()) : out_float.download();
    EXPECT_TRUE(in.guards_intact() && out_half.guards_intact() && out_float.guards_intact());
  }
  EXPECT_TRUE(g.bytes.guards_intact());
  return result;
}

TEST(EsawPassGpu, EqualsTheCpuForEveryStepDirectionRangeStorageAndGuide) {
  SV_REQUIRE_CUDA_DEVICE();
  const int width = 33, height = 17;
  const ImageU8 guide = test::random_texture(width, height, 5, 1);
  const ImageRgb8 colour_guide = random_colour_texture(width, height, 6);
  EsawSettings s;  // the defaults' gammas
  s.gamma_c = 12.0f;
  MessageSettings messages;
  messages.slope = 0.07f;
  messages.cap = 0.6f;
  for (bool per_pixel : {false, true}) {
    const SearchRange range = per_pixel ? SearchRange(varying_bases(width, height, 0, 6, 9), 7) : SearchRange(-2, 19);
    for (Storage storage : {Storage::Float, Storage::Half, Storage::HalfToFloat}) {
      const bool half = storage != Storage::Float;
      const CostVolume<float> input = random_volume(width, height, range, 21, half);
      for (int step : {1, 4, 13, 40}) {  // 40: wider and taller than the image, every tap absent
        for (PassDirection direction : {PassDirection::Horizontal, PassDirection::Vertical}) {
          for (int variant = 0; variant < 4; ++variant) {
            const bool with_messages = variant & 1, colour = variant & 2;
            CostVolume<float> expected;
            if (colour) {
              esaw_pass(input, expected, colour_guide, step, direction, s.gamma_c, s.gamma_p);
            } else {
              esaw_pass(input, expected, guide, step, direction, s.gamma_c, s.gamma_p);
            }
            if (half) round_to_half(expected);
            if (with_messages) {
              cost_to_message(expected, messages);
              if (half) round_to_half(expected);
            }
            std::ostringstream name;
            name << (per_pixel ? "per-pixel" : "uniform") << " " << storage_name(storage) << " step "
                 << step << (direction == PassDirection::Horizontal ? " H" : " V")
                 << (with_messages ? " +messages" : "") << (colour ? " colour" : " gray");
            const std::vector<float> actual =
                device_pass(input, guide, colour ? &colour_guide : nullptr, step, direction, s,
                            with_messages ? &messages : nullptr, storage);
            EXPECT_TRUE(agree(actual, expected.costs(), half ? kHalfTolerance : kFloatTolerance, width,
                              range.count(), name.str()));
          }
        }
      }
    }
  }
}

// ---- the whole aggregation --------------------------------------------------------------------

struct AggregateCase {
  int width, height, base, count, iterations;
  bool esmp, half, per_pixel, colour;
};

std::ostream& operator<<(std::ostream& os, const AggregateCase& c) {
  return os << (c.esmp ? "esmp " : "esaw ") << c.width << "x" << c.height << " d[" << c.base << ", +"
            << c.count << ") T" << c.iterations << (c.half ? " half" : " float")
            << (c.per_pixel ? " per-pixel" : "") << (c.colour ? " colour" : "");
}

class AdaptiveWeightAggregateGpu : public ::testing::TestWithParam<AggregateCase> {};

TEST_P(AdaptiveWeightAggregateGpu, EqualsTheCpuWithinTheStatedTolerance) {
  SV_REQUIRE_CUDA_DEVICE();
  const AggregateCase c = GetParam();
  const auto pair = test::shifted_pair(c.width, c.height, std::max(1, c.count / 3), 17, 1);
  const SearchRange range = c.per_pixel ? SearchRange(varying_bases(c.width, c.height, 0, 8, 4), c.count)
                                        : SearchRange(c.base, c.count);
  EsawSettings s;
  s.iterations = c.iterations;
  s.gamma_c = 12.0f;
  s.half_storage = c.half;
  MessageSettings messages;
  messages.cap = 0.0375f * c.count;

  CostVolume<float> costs = truncated_ad_cost_volume(pair.left, pair.right, range, 0.15f, 12.0f);
  if (c.half) round_to_half(costs);
  const ImageRgb8 colour = random_colour_texture(c.width, c.height, 23);
  CostVolume<float> expected;
  if (c.colour) {
    expected = c.esmp ? esmp_aggregate(costs, colour, s, messages) : esaw_aggregate(costs, colour, s);
  } else {
    expected = c.esmp ? esmp_aggregate(costs, pair.left, s, messages) : esaw_aggregate(costs, pair.left, s);
  }

  const size_t n = costs.costs().size();
  DeviceGuide guide(pair.left, c.colour ? &colour : nullptr);
  std::unique_ptr<GuardedDeviceArray<int16_t>> bases;
  const cuda::DeviceSearchRange d_range = device_range(range, bases);
  PoisonedDeviceArray<float> result(n), scratch(n);
  PoisonedDeviceArray<uint16_t> costs_half(n), scratch_half(n);
  cuda::AdaptiveWeightVolumes volumes;
  volumes.costs = result.data();
  if (c.half) {
    costs_half.upload(to_half_bits(costs.costs()));
    volumes.costs_half = as_half(costs_half.data());
    volumes.scratch_half = as_half(scratch_half.data());
  } else {
    result.upload(costs.costs());
    volumes.scratch = scratch.data();
  }
  cuda::adaptive_weight_aggregate(volumes, guide.get(), c.width, c.height, d_range, s,
                                  c.esmp ? &messages : nullptr, nullptr);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  std::ostringstream name;
  name << c;
  EXPECT_TRUE(agree(result.download(), expected.costs(), c.half ? kHalfTolerance : kFloatTolerance,
                    c.width, c.count, name.str()));
  EXPECT_TRUE(result.guards_intact() && scratch.guards_intact() && costs_half.guards_intact() &&
              scratch_half.guards_intact() && guide.bytes.guards_intact());
  if (c.iterations > 0) {
    EXPECT_NE(expected.costs(), costs.costs()) << c;  // the case aggregates
  }
}

INSTANTIATE_TEST_SUITE_P(
    Yu2009, AdaptiveWeightAggregateGpu,
    ::testing::Values(AggregateCase{33, 17, 0, 16, 9, false, false, false, false},
                      AggregateCase{33, 17, -3, 16, 9, true, false, false, false},
                      AggregateCase{33, 17, 0, 16, 9, false, true, false, false},
                      AggregateCase{33, 17, 0, 16, 9, true, true, false, false},
                      AggregateCase{33, 17, 0, 256, 3, true, false, false, false},  // the most candidates
                      AggregateCase{33, 17, 0, 256, 3, true, true, false, false},
                      AggregateCase{33, 17, 0, 5, 9, true, false, true, false},    // pyramid-style range
                      AggregateCase{33, 17, 0, 5, 9, false, true, true, false},
                      AggregateCase{33, 17, 0, 16, 0, false, true, false, false},  // T = 0: half widened
                      AggregateCase{161, 97, 0, 37, 9, true, false, false, false},
                      AggregateCase{161, 97, 0, 37, 9, true, true, false, false},
                      AggregateCase{33, 17, 0, 16, 9, false, false, false, true},  // colour weights
                      AggregateCase{33, 17, -3, 16, 9, true, true, false, true},
                      AggregateCase{33, 17, 0, 5, 9, true, false, true, true},
                      AggregateCase{161, 97, 0, 37, 9, true, false, false, true}));

TEST(AdaptiveWeightAggregateGpu, RejectsBadSettingsAndMissingVolumes) {
  SV_REQUIRE_CUDA_DEVICE();
  PoisonedDeviceArray<float> a(4 * 4 * 8), b(4 * 4 * 8);
  GuardedDeviceArray<uint8_t> guide(16);
  cuda::AdaptiveWeightVolumes v;
  v.costs = a.data();
  v.scratch = b.data();
  const cuda::DeviceSearchRange range{0, nullptr, 8};
  EsawSettings bad;
  bad.gamma_c = 0.0f;
  EXPECT_THROW(cuda::adaptive_weight_aggregate(v, guide.data(), 4, 4, range, bad, nullptr, nullptr), InputError);
  EsawSettings half;
  half.half_storage = true;  // but no half volumes
  EXPECT_THROW(cuda::adaptive_weight_aggregate(v, guide.data(), 4, 4, range, half, nullptr, nullptr), InputError);
  EXPECT_THROW(cuda::adaptive_weight_aggregate(v, guide.data(), 4, 4, {0, nullptr, 257}, EsawSettings{}, nullptr, nullptr), InputError);
  EXPECT_THROW(cuda::esaw_pass(a.data(), b.data(), guide.data(), 4, 4, range, 0, PassDirection::Horizontal, 12.0f, 36.0f, nullptr, nullptr), InputError);
  cuda::WeightGuide two_channels(guide.data());
  two_channels.channels = 2;
  EXPECT_THROW(cuda::esaw_pass(a.data(), b.data(), two_channels, 4, 4, range, 1, PassDirection::Horizontal, 12.0f, 36.0f, nullptr, nullptr), InputError);
}

// ---- the engines ------------------------------------------------------------------------------

struct EngineCase {
  std::string algorithm;
  int width, height, min_disparity, disparities;
  bool half_costs;
  int pyramid_levels;
  bool paper_pipeline;  // Yu 2009's: integer WTA and the median only; else the project defaults
  bool colour;          // both engines get the colour pair (colour weights); else its gray views
};

std::ostream& operator<<(std::ostream& os, const EngineCase& c) {
  return os << c.algorithm << " " << c.width << "x" << c.height << " d[" << c.min_disparity << ", +"
            << c.disparities << ")" << (c.half_costs ? " half" : "") << " L" << c.pyramid_levels
            << (c.paper_pipeline ? " paper pipeline" : " default post-processing")
            << (c.colour ? " colour" : " gray");
}

class AdaptiveWeightCudaEqualsCpu : public ::testing::TestWithParam<EngineCase> {};

TEST_P(AdaptiveWeightCudaEqualsCpu, SameDisparitiesOnAtLeast99Point5Percent) {
  SV_REQUIRE_CUDA_DEVICE();
  const EngineCase c = GetParam();
  const SyntheticFrame frame =
      test::render_synthetic(c.width, c.height, std::max(4, c.min_disparity + c.disparities), 2);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);

  StereoParams params;
  params.algorithm = c.algorithm;
  params.min_disparity = c.min_disparity;
  params.num_disparities = c.disparities;
  params.half_costs = c.half_costs;
  params.pyramid_levels = c.pyramid_levels;
  if (c.paper_pipeline) {
    params.uniqueness = 0;
    params.lr_check = false;
    params.fill_holes = false;
    params.subpixel = false;
  }
  cuda::CudaEngine gpu;
  ASSERT_TRUE(gpu.supports(params)) << c;
  const auto compute = [&](StereoEngine& engine) {
    return c.colour ? engine.compute(frame.left, frame.right, params) : engine.compute(left, right, params);
  };
  CpuEngine cpu;
  const DisparityResult expected = compute(cpu);
  const DisparityResult actual = compute(gpu);
  ASSERT_TRUE(actual.disparity_fixed.same_size(expected.disparity_fixed)) << c;
  size_t same = 0, valid = 0;
  for (size_t i = 0; i < expected.disparity_fixed.size(); ++i) {
    same += actual.disparity_fixed.data()[i] == expected.disparity_fixed.data()[i];
    valid += expected.disparity_fixed.data()[i] != kInvalidFixedDisparity;
  }
  const double fraction = static_cast<double>(same) / expected.disparity_fixed.size();
  std::cout << "  " << c << ": " << same << " of " << expected.disparity_fixed.size()
            << " disparities identical\n";
  EXPECT_GE(fraction, kMinimumSameDisparities) << c;
  EXPECT_GT(valid, expected.disparity_fixed.size() / 2) << c;  // a real result, not all invalid

  // Buffers reused: the same frame again gives the same answer bit for bit.
  EXPECT_EQ(compute(gpu).disparity_fixed, actual.disparity_fixed) << c;
  if (c.colour) {
    // The colour reached the weights: the gray views alone give another result.
    EXPECT_NE(gpu.compute(left, right, params).disparity_fixed, actual.disparity_fixed) << c;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Yu2009, AdaptiveWeightCudaEqualsCpu,
    ::testing::Values(EngineCase{"esaw", 33, 17, 0, 16, false, 0, true, false},
                      EngineCase{"esmp", 33, 17, -2, 7, false, 0, false, false},
                      EngineCase{"esmp", 33, 17, 0, 16, true, 0, true, false},
                      EngineCase{"esaw", 641, 479, 0, 64, false, 0, true, false},
                      EngineCase{"esmp", 641, 479, -3, 37, true, 0, false, false},
                      EngineCase{"esmp", 641, 479, 0, 64, false, 1, true, false},
                      EngineCase{"esaw", 320, 240, 0, 48, true, 2, false, false},
                      EngineCase{"esaw", 641, 479, 0, 64, false, 0, true, true},
                      EngineCase{"esmp", 641, 479, -3, 37, true, 0, false, true},
                      EngineCase{"esmp", 321, 241, 0, 48, false, 1, true, true}));

TEST(AdaptiveWeightCudaEngine, NamesItsStagesLikeTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::shifted_pair(96, 64, 5, 3, 1);
  cuda::CudaEngine gpu;
  for (const char* algorithm : {"esaw", "esmp"}) {
    StereoParams params;
    params.algorithm = algorithm;
    params.num_disparities = 16;
    std::vector<std::string> names;
    for (const auto& s : gpu.compute(pair.left, pair.right, params).timings.stages) names.push_back(s.stage);
    for (const char* stage : {"cost", algorithm, "wta", "lr-check", "median"}) {
      EXPECT_NE(std::find(names.begin(), names.end(), stage), names.end()) << algorithm << " " << stage;
    }
  }
}

// Every other algorithm matches the gray views of a colour pair, as the CPU engine does.
TEST(AdaptiveWeightCudaEngine, ColourInputOfOtherAlgorithmsEqualsTheGrayViews) {
  SV_REQUIRE_CUDA_DEVICE();
  const SyntheticFrame frame =
      test::render_synthetic(161, 97, 32, 1);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);
  cuda::CudaEngine gpu;
  for (const char* algorithm : {"census-sgm", "bm-sad", "esaw"}) {
    StereoParams params;
    params.algorithm = algorithm;
    params.num_disparities = 32;
    params.colour_weights = std::string(algorithm) != "esaw";  // esaw: colour weights off
    EXPECT_EQ(gpu.compute(frame.left, frame.right, params).disparity_fixed,
              gpu.compute(left, right, params).disparity_fixed)
        << algorithm;
  }
}

}  // namespace
}  // namespace sv
