#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/device_buffer.h"
#include "src/core/pixel_costs.h"
#include "src/core/winner_takes_all.h"

namespace sv::cuda {

// How a probed volume stores its cells.
enum class CellType { U8, U16, U32, F16, F32 };

// One pixel's costs and disparities fetched as the pipeline passes them (ResultParts::probe):
// cudaMemcpyAsync of that pixel's cells into pinned memory on the compute stream, a few
// hundred bytes to a few KiB a frame and never the volume, so the frame is not held up.
// finish() turns them into the PixelCosts the CPU engines give: the selection is made on the
// host by explain_selection from the very costs the GPU selected on, and the pixel's value
// after each later stage says which one rejected it. One per frame slot (frames overlap).
class PixelProbeTaps {
 public:
  // Starts a frame; inactive (every tap does nothing) without a pixel, and for a pixel outside
  // the image, which finish() reports.
  void begin(const std::optional<ProbePixel>& pixel, int width, int height);
  bool active() const { return active_; }

  // The pixel's `count` candidate cells of a volume laid out [pixel][stride cells].
  void matching(const void* volume, CellType type, size_t stride, int count,
                const std::string& name, cudaStream_t stream);
  void aggregated(const void* volume, CellType type, size_t stride, int count,
                  const std::string& name, cudaStream_t stream);
  // The aggregated cost as the sum of 8-bit path volumes, one per direction of `volume_cells`
  // cells each (FastSgm), summed on the host.
  void path_sums(const uint8_t* volumes, size_t volume_cells, int paths, size_t stride, int count,
                 const std::string& name, cudaStream_t stream);
  // The candidates' first disparity: uniform, or the pixel's of a per-pixel base image.
  void base(int uniform_base, const int16_t* per_pixel_base, cudaStream_t stream);
  // The final level's selection settings (its curve: aggregated, else matching).
  void selection(const WtaSettings& wta) { wta_ = wta; }
  // The pixel's disparity after `stage` (in pipeline order).
  void disparity(const int16_t* image, InvalidReason stage, cudaStream_t stream);
  // Once the frame's compute stream has passed every tap; nullopt when the frame asked for none.
  std::optional<PixelCosts> finish();

 private:
  struct Curve {
    bool present = false;
    CellType type = CellType::U8;
    size_t offset = 0;  // in host_
    int count = 0;
    int paths = 0;  // > 0: that many 8-bit path volumes to sum
    std::string name;
  };
  struct Snapshot {
    size_t offset = 0;
    InvalidReason stage = InvalidReason::None;
  };
  size_t take(size_t bytes);  // space in host_ for the frame's next copy
  void fetch_curve(Curve& curve, const void* volume, CellType type, size_t stride, int count,
                   const std::string& name, cudaStream_t stream);
  template <typename T>
  std::vector<T> cells(const Curve& curve);
  // use(costs) with the curve's cells as the GPU stored them (half costs as float, the
  // directions' path costs summed as uint16); its result.
  template <typename Use>
  auto with_cells(const Curve& curve, Use use);

  bool requested_ = false, active_ = false;
  PixelCosts costs_;  // the pixel, or why there is none
  int width_ = 0;
  PinnedBuffer<uint8_t> host_;
  size_t used_ = 0;
  Curve matching_, aggregated_;
  int uniform_base_ = 0;
  std::optional<size_t> base_offset_;  // a per-pixel base's int16 in host_
  WtaSettings wta_;
  std::vector<Snapshot> snapshots_;
};

}  // namespace sv::cuda
