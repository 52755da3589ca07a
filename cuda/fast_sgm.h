#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/device_buffer.h"
#include "cuda/path_block_order.h"
#include "cuda/side_stream.h"
#include "cuda/stage_events.h"
#include "src/core/census_transform.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/winner_takes_all.h"

namespace sv::cuda {

// Census-SGM and rank-SGM for a uniform search range: the CPU reference's disparities, bit for
// bit, from 8-bit path costs, one volume per direction (sgm_path_costs.cu), and the fused
// selection over them (disparity_selection.cu).
// It owns the padded cost volume, the path volumes and the right-view keys, grown once.
//
// Measured on the H100 (docs/performance.md, ledger: row-bands-l2): a schedule in bands of rows
// that kept each band's costs and up-going path costs in L2 was correct but no faster (equal at
// 1920x1080 D256, 18 % slower at D128: its many small launches and short paths cost what the
// saved traffic gained).
// What paid instead is the clocked schedule of sgm_path_costs (kAuto picks it for large frames),
// for which this class owns the row clocks and the side stream.
class FastSgm {
 public:
  FastSgm() = default;
  FastSgm(const FastSgm&) = delete;
  FastSgm& operator=(const FastSgm&) = delete;

  // Whether this class handles the case (otherwise the general stages must).
  static bool supports(int width, int count, const SgmSettings& sgm);

  struct Frame {
    // The matching cost: census codes, or (when rank_left is set) rank images.
    const CensusCode* census_left;
    const CensusCode* census_right;
    int window_bits;       // comparison bits of the census window
    const uint8_t* rank_left;
    const uint8_t* rank_right;
    int rank_window;
    const uint8_t* guide;  // left image (adaptive P2)
    int width, height;
    int base, count;       // uniform range
    SgmSettings sgm;
    WtaSettings wta;
    bool lr_check;
    int lr_max_diff;
    int16_t* disparity_fixed;  // out
    // Optional outputs for the confidence: the cost peaks of the selection, and (with lr_check)
    // the right view in fixed point.
    float2* peaks = nullptr;
    int16_t* right_view = nullptr;
  };

  // Queues the frame on `stream`, recording stages as prefix + "cost" / "sgm" / ... in `events`.
  void run(const Frame& frame, cudaStream_t stream, StageEvents& events, const std::string& prefix);

  // The last frame's volumes, for the pixel probe (cuda/pixel_probe.h): the matching costs and
  // the path costs, one volume of pixels * cells_per_pixel(count) bytes per direction, each
  // pixel's candidates first in its cells.
  static size_t cells_per_pixel(int count);
  const uint8_t* costs() const { return costs_.data(); }
  const uint8_t* path_volumes() const { return volumes_.data(); }

 private:
  DeviceBuffer<uint8_t> costs_;
  DeviceBuffer<uint8_t> volumes_;  // one path volume per direction
  DeviceBuffer<uint32_t> right_view_keys_;
  DeviceBuffer<unsigned> row_clocks_;  // sgm_path_costs' clocked schedule
  SideStream side_;
  PathBlockOrder block_order_;  // the free schedule's launch order, one table per frame shape

  void write_costs(const Frame& frame, cudaStream_t stream, StageEvents& events, const std::string& prefix);
};

}  // namespace sv::cuda
