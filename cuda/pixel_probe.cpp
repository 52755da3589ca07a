#include "cuda/pixel_probe.h"

#include <cstring>

#include "cuda/cuda_check.h"
#include "src/core/error.h"
#include "src/core/half_float.h"

namespace sv::cuda {
namespace {

// 256 candidates of 8 paths, the matching and the aggregated curves as 32-bit cells and the
// stage snapshots fit many times over.
constexpr size_t kHostBytes = 16384;

size_t cell_bytes(CellType type) {
  switch (type) {
    case CellType::U8: return 1;
    case CellType::U16:
    case CellType::F16: return 2;
    case CellType::U32:
    case CellType::F32: return 4;
  }
  return 1;
}

}  // namespace

void PixelProbeTaps::begin(const std::optional<ProbePixel>& pixel, int width, int height) {
  requested_ = pixel.has_value();
  active_ = false;
  costs_ = PixelCosts();
  matching_ = Curve();
  aggregated_ = Curve();
  base_offset_.reset();
  uniform_base_ = 0;
  wta_ = WtaSettings();
  snapshots_.clear();
  used_ = 0;
  width_ = width;
  if (!pixel) return;
  costs_.pixel = *pixel;
  costs_.unavailable = probe_outside_problem(*pixel, width, height);
  if (!costs_.available()) return;
  host_.reserve(kHostBytes);
  active_ = true;
}

size_t PixelProbeTaps::take(size_t bytes) {
  const size_t offset = (used_ + 7) / 8 * 8;
  if (offset + bytes > kHostBytes) {
    throw RuntimeError("pixel probe: more cells than its buffer holds");
  }
  used_ = offset + bytes;
  return offset;
}

void PixelProbeTaps::fetch_curve(Curve& curve, const void* volume, CellType type, size_t stride,
                                 int count, const std::string& name, cudaStream_t stream) {
  const size_t size = cell_bytes(type);
  const size_t pixel = static_cast<size_t>(costs_.pixel.y) * width_ + costs_.pixel.x;
  curve.present = true;
  curve.type = type;
  curve.count = count;
  curve.name = name;
  curve.offset = take(size * count);
  const auto* source = static_cast<const uint8_t*>(volume) + pixel * stride * size;
  SV_CUDA_CHECK(cudaMemcpyAsync(host_.data() + curve.offset, source, size * count,
                                cudaMemcpyDeviceToHost, stream));
}

void PixelProbeTaps::matching(const void* volume, CellType type, size_t stride, int count,
                              const std::string& name, cudaStream_t stream) {
  if (active_) fetch_curve(matching_, volume, type, stride, count, name, stream);
}

void PixelProbeTaps::aggregated(const void* volume, CellType type, size_t stride, int count,
                                const std::string& name, cudaStream_t stream) {
  if (active_) fetch_curve(aggregated_, volume, type, stride, count, name, stream);
}

void PixelProbeTaps::path_sums(const uint8_t* volumes, size_t volume_cells, int paths,
                               size_t stride, int count, const std::string& name,
                               cudaStream_t stream) {
  if (!active_) return;
  const size_t pixel = static_cast<size_t>(costs_.pixel.y) * width_ + costs_.pixel.x;
  aggregated_.present = true;
  aggregated_.type = CellType::U8;
  aggregated_.count = count;
  aggregated_.paths = paths;
  aggregated_.name = name;
  aggregated_.offset = take(static_cast<size_t>(paths) * count);
  // One copy: a row of `count` cells from each direction's volume.
  SV_CUDA_CHECK(cudaMemcpy2DAsync(host_.data() + aggregated_.offset, count,
                                  volumes + pixel * stride, volume_cells, count, paths,
                                  cudaMemcpyDeviceToHost, stream));
}

void PixelProbeTaps::base(int uniform_base, const int16_t* per_pixel_base, cudaStream_t stream) {
  if (!active_) return;
  uniform_base_ = uniform_base;
  base_offset_.reset();
  if (per_pixel_base == nullptr) return;
  base_offset_ = take(sizeof(int16_t));
  const size_t pixel = static_cast<size_t>(costs_.pixel.y) * width_ + costs_.pixel.x;
  SV_CUDA_CHECK(cudaMemcpyAsync(host_.data() + *base_offset_, per_pixel_base + pixel,
                                sizeof(int16_t), cudaMemcpyDeviceToHost, stream));
}

void PixelProbeTaps::disparity(const int16_t* image, InvalidReason stage, cudaStream_t stream) {
  if (!active_) return;
  const size_t pixel = static_cast<size_t>(costs_.pixel.y) * width_ + costs_.pixel.x;
  const Snapshot snapshot{take(sizeof(int16_t)), stage};
  SV_CUDA_CHECK(cudaMemcpyAsync(host_.data() + snapshot.offset, image + pixel, sizeof(int16_t),
                                cudaMemcpyDeviceToHost, stream));
  snapshots_.push_back(snapshot);
}

template <typename T>
std::vector<T> PixelProbeTaps::cells(const Curve& curve) {
  std::vector<T> out(static_cast<size_t>(curve.count));
  if (curve.paths > 0) {  // the directions' 8-bit path costs, summed
    for (int r = 0; r < curve.paths; ++r) {
      const uint8_t* row = host_.data() + curve.offset + static_cast<size_t>(r) * curve.count;
      for (int k = 0; k < curve.count; ++k) out[k] = static_cast<T>(out[k] + row[k]);
    }
    return out;
  }
  std::memcpy(out.data(), host_.data() + curve.offset, out.size() * sizeof(T));
  return out;
}

template <typename Use>
auto PixelProbeTaps::with_cells(const Curve& curve, Use use) {
  if (curve.paths > 0) return use(cells<uint16_t>(curve).data());
  switch (curve.type) {
    case CellType::U8: return use(cells<uint8_t>(curve).data());
    case CellType::U16: return use(cells<uint16_t>(curve).data());
    case CellType::U32: return use(cells<uint32_t>(curve).data());
    case CellType::F32: return use(cells<float>(curve).data());
    case CellType::F16: break;
  }
  const std::vector<uint16_t> bits = cells<uint16_t>(curve);
  std::vector<float> costs(bits.size());
  for (size_t k = 0; k < bits.size(); ++k) costs[k] = half_bits_to_float(bits[k]);
  return use(costs.data());
}

std::optional<PixelCosts> PixelProbeTaps::finish() {
  if (!requested_) return std::nullopt;
  if (!active_) return costs_;
  PixelCosts out = costs_;
  out.base = uniform_base_;
  if (base_offset_) {
    int16_t base = 0;
    std::memcpy(&base, host_.data() + *base_offset_, sizeof base);
    out.base = base;
  }
  if (!matching_.present) {
    out.unavailable = "the CUDA engine kept no costs for this pixel";
    return out;
  }
  const auto curve_of = [](const Curve& curve) {
    return [&curve](const auto* costs) { return cost_curve(costs, curve.count); };
  };
  out.matching = with_cells(matching_, curve_of(matching_));
  out.matching_name = matching_.name;
  if (aggregated_.present) {
    out.aggregated = with_cells(aggregated_, curve_of(aggregated_));
    out.aggregated_name = aggregated_.name;
  }
  const Curve& selected = aggregated_.present ? aggregated_ : matching_;
  out.selection = with_cells(selected, [&](const auto* costs) {
    return explain_selection(costs, selected.count, out.base, wta_);
  });
  out.uniqueness = wta_.uniqueness;
  out.final_disparity = out.selection.disparity;
  out.reason = out.selection.reason;
  for (const Snapshot& s : snapshots_) {
    int16_t value = 0;
    std::memcpy(&value, host_.data() + s.offset, sizeof value);
    out.follow_value(value, s.stage);
  }
  return out;
}

}  // namespace sv::cuda
