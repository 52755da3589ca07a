#pragma once

// Host launchers of the CUDA stages, one family per .cu file. Each takes device pointers,
// sizes and the pipeline's stream, launches asynchronously and checks the launch; none
// synchronizes. Every stage reproduces its CPU reference in src/core (same name) bit for bit,
// except where a tolerance is stated. Images are dense (row stride = width) like sv::Image.
// Search ranges: `per_pixel_base` null means every pixel starts at `uniform_base`; otherwise
// per_pixel_base[y * width + x] is that pixel's first disparity (the pyramid's refinement).
// Cost volumes are laid out [y][x][k] like sv::CostVolume.

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/path_block_order.h"
#include "cuda/side_stream.h"
#include "src/core/census_transform.h"
#include "src/core/colorize.h"
#include "src/core/high_bit_depth.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/stereo_params.h"
#include "src/core/temporal_filter_math.h"
#include "src/core/winner_takes_all.h"

namespace sv::cuda {

struct DeviceSearchRange {
  int uniform_base = 0;
  const int16_t* per_pixel_base = nullptr;  // device pointer or null
  int count = 0;
};

// census.cu — census_transform.cpp, for 8-bit, 16-bit and float input (the same overloads and
// missing-value rules: -1..255, -1..65535; float: NaN always missing, missing_value NaN = none).
void census_transform(const uint8_t* image, int width, int height, CensusWindow window,
                      int missing_value, CensusCode* out, cudaStream_t stream);
void census_transform(const uint16_t* image, int width, int height, CensusWindow window,
                      int missing_value, CensusCode* out, cudaStream_t stream);
void census_transform(const float* image, int width, int height, CensusWindow window,
                      float missing_value, CensusCode* out, cudaStream_t stream);

// high_bit_depth.cu — eight_bit_view of high_bit_depth.cpp: the high byte of 16-bit input.
void eight_bit_view(const uint16_t* image, int width, int height, uint8_t* view,
                    cudaStream_t stream);
// The same for float input: the pair's range view (float_view_range, eight_bit_value(float)),
// the range read from device memory (`range`, as float_view_range leaves it).
void eight_bit_view(const float* image, int width, int height, const FloatViewRange* range,
                    uint8_t* view, cudaStream_t stream);
// float_view_range of high_bit_depth.cpp for a pair of `pixels` values a plane in device memory,
// into *range (device memory; `missing` is float_missing_value(params)); `keys` is scratch for
// 2 ints. Equal to the CPU's range bit for bit but for the sign of a zero end, which leaves
// every 8-bit value the same.
void float_view_range(const float* left, const float* right, size_t pixels, float missing,
                      int* keys, FloatViewRange* range, cudaStream_t stream);

// rank.cu — rank_transform.cpp: ranks of an M x M window (3..15); the cost volume with a
// candidate stride (count for the general stages, the padded stride of the fast SGM; padding
// cells hold kMaxMatchCost).
void rank_transform(const uint8_t* image, int width, int height, int window, uint8_t* ranks,
                    cudaStream_t stream);
void rank_cost_volume(const uint8_t* left_ranks, const uint8_t* right_ranks, int width, int height,
                      int window, DeviceSearchRange range, int stride, uint8_t* costs,
                      cudaStream_t stream);

// census_cost.cu — census_cost.cpp
void census_cost_volume(const CensusCode* left, const CensusCode* right, int width, int height,
                        DeviceSearchRange range, uint8_t* costs, cudaStream_t stream);

// sgm_aggregation.cu — sgm_aggregation.cpp. `guide` is the left image (adaptive P2).
void sgm_aggregate(const uint8_t* costs, const uint8_t* guide, int width, int height,
                   DeviceSearchRange range, const SgmSettings& settings, uint16_t* aggregated,
                   cudaStream_t stream);

// sgm_path_costs.cu — the fast form of sgm_aggregation.cpp for a uniform range: every direction
// in one launch, each direction's L_r stored as bytes in its own volume of
// width * height * 32 * sgm_path_cells_per_lane(count) bytes (candidates padded), directions in
// the reference's order. Supported when sgm_path_costs_supported() (P2 + 64 <= 255, count <= 256).
// `costs` is the census cost volume padded the same way (census_cost_volume_strided).
int sgm_path_cells_per_lane(int count);
bool sgm_path_costs_supported(int count, const SgmSettings& settings);
// How the walks run (the results are the same): kFree, one launch whose warps go at their own
// pace; kClocked, the downward then the upward walks with their warps kept in step by row clocks
// (so that the three directions of a sense read each cost row from DRAM once) and the horizontal
// walks beside them on `side`; kAuto, kClocked where the frame is large enough to gain from it.
// The clocked schedule needs `row_clocks` (sgm_path_costs_clock_words(height) words) and `side`.
enum class PathSchedule { kAuto, kFree, kClocked };
// Every schedule needs `block_order` (the free one's launch order, path_block_order.h), for the
// frames where the clocked schedule does not apply.
struct PathScheduling {
  PathSchedule schedule = PathSchedule::kFree;
  unsigned* row_clocks = nullptr;
  SideStream* side = nullptr;
  PathBlockOrder* block_order = nullptr;
};
int sgm_path_costs_clock_words(int height);
void sgm_path_costs(const uint8_t* costs, const uint8_t* guide, int width, int height, int base,
                    int count, const SgmSettings& settings, uint8_t* path_costs,
                    cudaStream_t stream, const PathScheduling& scheduling);

// census_cost.cu — the volume of the fast SGM: a padded candidate stride (a multiple of 32;
// uniform range; padding cells hold kMaxMatchCost), for codes of a window with `window_bits`
// comparison bits.
void census_cost_volume_strided(const CensusCode* left, const CensusCode* right, int width,
                                int height, int uniform_base, int count, int stride, int window_bits,
                                uint8_t* costs, cudaStream_t stream);
// disparity_selection.cu — winner_takes_all + right_view_disparity + lr_check fused, for a
// uniform range [base, base + count), count <= 256. From the SGM path volumes above (S = their
// sum), or from a 16-bit cost volume padded the same way whose 0xFFFF means "no match computed".
// The right view is gathered as keys (cost << 8 | k, smallest wins) in `right_view_keys`
// (width * height uint32, scratch), then the LR check runs on them.
// lr_check false: the WTA alone (keys unused). `peaks` (width * height, optional) receives the
// confidence's cost peaks (confidence_stages.h, cost_peaks) of the same pass. `max_path_cost`
// bounds every L_r (kMaxMatchCost + P2); at most 127 lets volumes add two at a time.
// `keys_cleared`: the caller already cleared the keys (clear_right_view_keys), e.g. on a side
// stream beside the path costs, so that the clearing leaves the frame's critical path.
void clear_right_view_keys(uint32_t* keys, size_t pixels, cudaStream_t stream);
void select_disparity_from_path_costs(const uint8_t* path_costs, int directions, int width,
                                      int height, int base, int count, const WtaSettings& wta,
                                      bool lr_check, int lr_max_diff, uint32_t* right_view_keys,
                                      int16_t* disparity_fixed, cudaStream_t stream,
                                      float2* peaks = nullptr, int max_path_cost = 255,
                                      bool keys_cleared = false);
// The LR check from right-view keys gathered by a fused selection.
void lr_check_from_keys(int16_t* disparity_fixed, const uint32_t* right_view_keys, int width,
                        int height, int base, int lr_max_diff, cudaStream_t stream);
void select_disparity_from_costs16(const uint16_t* costs, int width, int height, int base,
                                   int count, const WtaSettings& wta, bool lr_check,
                                   int lr_max_diff, uint32_t* right_view_keys,
                                   int16_t* disparity_fixed, cudaStream_t stream,
                                   float2* peaks = nullptr);

// block_matching.cu — block_matching.cpp
void sad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                     DeviceSearchRange range, uint32_t* costs, cudaStream_t stream);
// The SAD volume of a uniform range in 16 bits with a padded candidate stride, for the fused
// selection: the same values (at most 15 * 15 * 255 < 0xFFFF), the outside cost as 0xFFFF.
bool sad_cost_volume16_supported(int window);
void sad_cost_volume16(const uint8_t* left, const uint8_t* right, int width, int height,
                       int window, int base, int count, int stride, uint16_t* costs,
                       cudaStream_t stream);
void ssd_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                     DeviceSearchRange range, uint32_t* costs, cudaStream_t stream);
void zncc_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                      DeviceSearchRange range, float* costs, cudaStream_t stream);

// winner_takes_all.cu — winner_takes_all.cpp (T: uint8_t, uint16_t, uint32_t, float)
template <typename T>
void winner_takes_all(const T* costs, int width, int height, DeviceSearchRange range,
                      const WtaSettings& settings, int16_t* disparity_fixed, cudaStream_t stream);
template <typename T>
void right_view_disparity(const T* costs, int width, int height, DeviceSearchRange range,
                          int16_t* right_fixed, cudaStream_t stream);

// post_filters.cu — lr_check.cpp, median_filter.cpp, hole_filling.cpp
void lr_check(int16_t* left_fixed, const int16_t* right_fixed, int width, int height, int max_diff,
              cudaStream_t stream);
void median_filter(const int16_t* in, int16_t* out, int width, int height, int size,
                   cudaStream_t stream);
void fill_holes(int16_t* disparity_fixed, int width, int height, cudaStream_t stream);

// temporal_filter.cu — temporal_filter.cpp. `previous` and `age` (width * height each) are the
// filter's state, updated in place; `fresh` treats them as empty (no history) without reading.
void temporal_filter(int16_t* disparity_fixed, int16_t* previous, uint8_t* age, int width,
                     int height, bool fresh, const TemporalFilterSettings& settings,
                     cudaStream_t stream);

// speckle_filter.cu — speckle_filter.cpp. `labels` and `counts` are scratch of width * height
// int32 each.
void remove_speckles(int16_t* disparity_fixed, int width, int height, int max_region_size,
                     int max_difference, int32_t* labels, int32_t* counts, cudaStream_t stream);

// format_conversion.cu — image.h's to_gray of a colour plane, and disparity.h's
// fixed_to_float_disparity, bit for bit.
void colour_to_gray(const Rgb8* colour, size_t pixels, uint8_t* gray, cudaStream_t stream);
void fixed_to_float_disparity(const int16_t* fixed, size_t pixels, float* out, cudaStream_t stream);

// colorize.cu — colorize.cpp: RGBA8 (alpha 255) from fixed-point disparities; `inverse_range`
// from sv::colorize_inverse_range(min, max).
void colorize_disparity(const int16_t* disparity_fixed, int width, int height, float min_value,
                        float inverse_range, Colormap map, Rgb8 invalid_color, uchar4* rgba,
                        cudaStream_t stream);

// pyramid.cu — pyramid.cpp
void downsample_2x2(const uint8_t* in, int width, int height, uint8_t* out, cudaStream_t stream);
void refine_search_range(const int16_t* coarse_fixed, int coarse_width, int coarse_height,
                         int width, int height, int radius, int min_disparity,
                         int num_disparities, int level, int16_t* base, cudaStream_t stream);

}  // namespace sv::cuda
