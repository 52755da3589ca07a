#include "cuda/cuda_engine.h"

#include <chrono>
#include <deque>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "cuda/adaptive_weight_stages.h"
#include "cuda/confidence_stages.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_disparity.h"
#include "cuda/device_rectification.h"
#include "cuda/device_views.h"
#include "cuda/fast_sgm.h"
#include "cuda/frame_memory.h"
#include "cuda/full_depth_pyramid.h"
#include "cuda/pinned_host_memory.h"
#include "cuda/pixel_probe.h"
#include "cuda/stage_events.h"
#include "cuda/stages.h"
#include "src/core/algorithm_registry.h"
#include "src/core/block_pool.h"
#include "src/core/confidence.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/high_bit_depth.h"
#include "src/core/parallel_copy.h"
#include "src/core/pyramid.h"
#include "src/core/temporal_filter.h"

namespace sv::cuda {
namespace {

struct LevelSize {
  int width, height;
};

// The pipeline's one stream, created on device 0 and destroyed with the engine.
class CudaStream {
 public:
  CudaStream() {
    SV_CUDA_CHECK(cudaSetDevice(0));
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Image sizes of every pyramid level (the core's rule); throws InputError when too small.
std::vector<LevelSize> pyramid_sizes(int width, int height, int levels) {
  std::vector<LevelSize> sizes;
  for (const auto& [w, h] : pyramid_level_sizes(width, height, levels)) sizes.push_back({w, h});
  return sizes;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Copies a pinned plane into `image`, reusing its pixels when the size fits.
template <typename T>
void copy_plane(const T* pinned, int width, int height, Image<T>& image) {
  if (!image.same_size(width, height)) image = Image<T>(width, height);
  parallel_copy(image.data(), pinned, image.size() * sizeof(T));
}

// A host plane the engine may upload from directly: it lies at the start of a pooled block of
// page-locked memory large enough for it.
bool uploads_directly(const void* plane, const std::shared_ptr<PixelBlock>& block, size_t bytes) {
  return block && block->memory().pinned() && block->data() == plane && block->bytes() >= bytes;
}

// The result blocks of the engine's pool (a frame's parts: fixed, float, confidence, two views,
// a deep pair's two planes) for both slots and the results its caller holds; past them results
// are copied out of staging.
constexpr int kResultBlocks = 32;

}  // namespace

// Where one result part of a slot is downloaded to: a pooled page-locked block that becomes the
// result's image as it is (no host copy), or, when every block of the pool is out (a caller that
// holds many results), the slot's own staging, copied into the result by finish().
struct ResultDestination {
  std::shared_ptr<PixelBlock> block;
  PinnedBuffer<uint8_t> staging;

  void* prepare(BlockPool& pool, size_t bytes) {
    block = pool.acquire(bytes);
    if (block) return block->data();
    staging.reserve(bytes);
    return staging.data();
  }
  // Hands the downloaded part to `image`; returns the host time spent copying it (0 for a block).
  template <typename T>
  double deliver(int width, int height, Image<T>& image) {
    if (block) {
      image = Image<T>::over(width, height, std::move(block));
      return 0.0;
    }
    const auto start = std::chrono::steady_clock::now();
    copy_plane(reinterpret_cast<const T*>(staging.data()), width, height, image);
    return milliseconds_since(start);
  }
};

// A host pair's planes on their way to the device (CudaEngine::Impl::upload): their device
// copies, pinned staging for planes not in pinned pooled blocks (left, then right), and the pooled
// pinned blocks uploaded from directly, held until the upload has read them
// (release_uploaded_inputs), so their pool cannot hand them out to be written meanwhile.
struct PlaneUpload {
  DeviceBuffer<uint8_t> left, right;
  PinnedBuffer<uint8_t> staging;
  std::shared_ptr<PixelBlock> held_left, held_right;

  bool holds_blocks() const { return held_left || held_right; }
  void release() {
    held_left.reset();
    held_right.reset();
  }
};

// One frame in flight: its own input planes (level 0), pinned staging for the upload and the
// download, its own device copy of the results (so the next frame may compute while this one
// downloads), its stage events, and the events that order the three streams.
struct FrameSlot {
  explicit FrameSlot(cudaStream_t compute) : events(compute) {
    for (cudaEvent_t* e : {&uploaded, &consumed, &computed, &finished}) {
      SV_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    }
  }
  ~FrameSlot() {
    for (cudaEvent_t e : {uploaded, consumed, computed, finished}) cudaEventDestroy(e);
  }
  FrameSlot(const FrameSlot&) = delete;
  FrameSlot& operator=(const FrameSlot&) = delete;

  PlaneUpload input;  // the pair
  PlaneUpload views;  // a deep pair's colour views (FrameRequest::views)
  double staging_copy_ms = 0.0;  // host time copying the pair into staging
  // The results on the device, written at the end of the frame, and where they are downloaded.
  DeviceBuffer<int16_t> out_fixed;
  DeviceBuffer<float> out_float, out_confidence;
  ResultDestination fixed_host, float_host, confidence_host;
  ResultDestination left_view_host, right_view_host;  // the rectified views of a raw pair
  ResultDestination left_plane_host, right_plane_host;  // the rectified planes of a raw deep pair
  bool has_fixed = false, has_float = false, has_confidence = false, has_views = false;
  PixelFormat planes = PixelFormat::Gray8;  // the rectified planes' format; Gray8: none
  StageEvents events;
  cudaEvent_t uploaded = nullptr;  // on the upload stream: the images are on the device
  cudaEvent_t consumed = nullptr;  // on the compute stream: the images are no longer read
  cudaEvent_t computed = nullptr;  // on the compute stream: the out_ buffers are written
  cudaEvent_t finished = nullptr;  // on the download stream: the pinned results are complete
  bool in_flight = false;
  int width = 0, height = 0;
  std::shared_ptr<const DeviceDisparity> device_result;  // want.device
  std::shared_ptr<const DeviceViews> device_views;  // want.device, and the GPU rectified views
  PixelProbeTaps probe;  // want.probe: the pixel's costs, fetched as the pipeline passes them
};

// A submitted frame in collect() order: computing in a slot, finished early into `done` (submit
// needed its slot), or failed before it reached the GPU.
struct PendingFrame {
  int slot = -1;
  std::unique_ptr<DisparityResult> done;
  std::exception_ptr error;
};

struct CudaEngine::Impl {
  CudaStream owned_stream, owned_upload_stream, owned_download_stream;
  cudaStream_t stream = owned_stream.get();
  cudaStream_t upload_stream = owned_upload_stream.get();
  cudaStream_t download_stream = owned_download_stream.get();
  FrameSlot slots[2] = {FrameSlot(stream), FrameSlot(stream)};
  std::deque<PendingFrame> pending;  // submitted, not yet collected, oldest first
  StageEvents* events = nullptr;  // the stage events of the frame being recorded
  PixelProbeTaps* probe = nullptr;  // the probe of the frame being recorded; null: none
  // compute_on_device: its stage events and the events that order it with the caller's stream.
  StageEvents device_call_events{stream};
  cudaEvent_t device_call_ready = nullptr, device_call_done = nullptr;

  // Per pyramid level: the two images (level 0 points into the frame's slot) and the per-pixel
  // range base of the finer levels.
  std::vector<DeviceBuffer<uint8_t>> left_levels, right_levels;
  std::vector<DeviceBuffer<int16_t>> range_base;
  DeviceBuffer<CensusCode> census_left, census_right;
  DeviceBuffer<uint8_t> ranks_left, ranks_right;
  DeviceBuffer<uint8_t> costs_u8;
  FastSgm fast;  // census-SGM for uniform ranges
  DeviceDisparityPool device_results;
  DeviceViewsPool device_views_pool;
  BlockPool result_pool{pinned_host_memory(), kResultBlocks};  // the results' host images
  DeviceRectification rectification;  // set_rectification: raw pairs are remapped first
  DeviceBuffer<uint32_t> right_view_keys;  // fused selection of block matching
  DeviceBuffer<uint16_t> costs_u16;
  DeviceBuffer<uint32_t> costs_u32;
  DeviceBuffer<float> costs_f32;
  // ESAW / ESMP: the pass's second float volume, or the two half volumes with half-costs (the
  // aggregated result always lands in costs_f32).
  DeviceBuffer<float> adaptive_scratch;
  DeviceBuffer<__half> adaptive_half, adaptive_half_scratch;
  DeviceBuffer<int16_t> disparity, disparity_scratch, right_disparity;
  // The temporal filter's state (params.temporal_filter): the previous output and each pixel's
  // hold age, for frames of temporal_width x temporal_height; 0 x 0 = no history.
  DeviceBuffer<int16_t> temporal_previous;
  DeviceBuffer<uint8_t> temporal_age;
  int temporal_width = 0, temporal_height = 0;
  StereoParams temporal_params;  // the parameters of that history
  // Confidence (final level): cost peaks, the confidence and a float scratch (texture, repair).
  DeviceBuffer<float2> peaks;
  DeviceBuffer<float> confidence, confidence_scratch;
  DeviceBuffer<int32_t> labels, counts;  // speckle removal scratch
  const uint8_t* level0_left = nullptr;
  const uint8_t* level0_right = nullptr;
  // The left colour image in the slot when ESAW / ESMP weigh by colour (level 0 only), else null.
  const Rgb8* level0_colour_left = nullptr;
  // 16-bit input (high_bit_depth.h): level 0's planes in the slot, which the census reads; the
  // level0 images above then point at their 8-bit views here. Null for 8-bit input.
  const uint16_t* input16_left = nullptr;
  const uint16_t* input16_right = nullptr;
  // Float input, the same way (the level0 images point at the pair's range view); null otherwise.
  const float* inputf_left = nullptr;
  const float* inputf_right = nullptr;
  float float_missing = 0.0f;
  // The float pair's range (float_view_range), found on the GPU, for every level's 8-bit image;
  // one serves all frames, as they run one after the other on the compute stream.
  DeviceBuffer<FloatViewRange> float_range;
  DeviceBuffer<int> float_range_keys;
  DeviceBuffer<uint8_t> view_left, view_right;
  // Coarse levels of 16-bit or float input, reduced at full depth (pyramid.cpp); index 0 unused.
  std::vector<DeviceBuffer<uint16_t>> left16_levels, right16_levels;
  std::vector<DeviceBuffer<float>> leftf_levels, rightf_levels;

  const uint8_t* left_image(int level) const { return level == 0 ? level0_left : left_levels[level].data(); }
  const uint8_t* right_image(int level) const { return level == 0 ? level0_right : right_levels[level].data(); }
  const uint16_t* left16_image(int level) const { return level == 0 ? input16_left : left16_levels[level].data(); }
  const uint16_t* right16_image(int level) const { return level == 0 ? input16_right : right16_levels[level].data(); }
  const float* leftf_image(int level) const { return level == 0 ? inputf_left : leftf_levels[level].data(); }
  const float* rightf_image(int level) const { return level == 0 ? inputf_right : rightf_levels[level].data(); }
  void build_coarse_levels(const StereoParams& params, const std::vector<LevelSize>& sizes);

  void run_pipeline(const StereoParams& params, int width, int height);

  // Points the level-0 planes at a pair already on the device (`left` / `right`, the request's
  // format) and runs what turns it into 8-bit gray planes (the rectification, the gray of a
  // colour pair, the 8-bit view of a 16-bit or float one), recording into `frame_events`. A raw
  // deep pair's colour views (`views_left` / `views_right`, on the device; else null) are
  // rectified beside it.
  void prepare_input(const FrameRequest& request, const void* left, const void* right,
                     const Rgb8* views_left, const Rgb8* views_right, StageEvents& frame_events);
  // Sends a host pair's planes into `to` on the upload stream, from their pooled pinned blocks
  // or through `to`'s staging; returns the host time spent staging. The slot's upload stage
  // begins with the first copy to the device (`begun`).
  double upload(FrameSlot& slot, const PairView& pair, PlaneUpload& to, bool& begun);
  // The checks of a request before anything is queued; throws InputError.
  void require_acceptable(const FrameRequest& request) const;
  // Queues a checked request into a free slot.
  void launch(const FrameRequest& request, FrameSlot& slot);
  // Waits for a slot's frame and hands the parts it downloaded to `result`.
  void finish(FrameSlot& slot, DisparityResult& result);
  // Lets go of the pooled input blocks whose upload has completed (its event), so they return
  // to their pool; never of one still being read.
  void release_uploaded_inputs();
  FrameSlot* free_slot();

  // Census- or rank-SGM for a uniform range through FastSgm; `frame` names the cost source.
  void fast_sgm(FastSgm::Frame frame, const StereoParams& params, const uint8_t* left,
                LevelSize size, DeviceSearchRange range, const std::string& prefix,
                bool final_level, const WtaSettings& wta) {
    frame.guide = left;
    frame.width = size.width;
    frame.height = size.height;
    frame.base = range.uniform_base;
    frame.count = range.count;
    frame.sgm = sgm_settings(params);
    frame.wta = wta;
    frame.lr_check = final_level && params.lr_check;
    frame.lr_max_diff = params.lr_max_diff;
    frame.disparity_fixed = disparity.data();
    const bool confidence_inputs = final_level && wants_confidence(params);
    frame.peaks = confidence_inputs ? peaks.data() : nullptr;
    frame.right_view = confidence_inputs ? right_disparity.data() : nullptr;
    fast.run(frame, stream, *events, prefix);
    if (final_level && probe != nullptr) {
      const size_t stride = FastSgm::cells_per_pixel(range.count);
      const size_t volume = static_cast<size_t>(size.width) * size.height * stride;
      probe->matching(fast.costs(), CellType::U8, stride, range.count,
                      frame.rank_left != nullptr ? "rank difference" : "census", stream);
      probe->path_sums(fast.path_volumes(), volume, params.sgm_paths, stride, range.count,
                       sgm_probe_name(params), stream);
      probe->selection(wta);
      probe->disparity(disparity.data(), InvalidReason::LrCheck, stream);
    }
  }

  static std::string sgm_probe_name(const StereoParams& params) {
    return "SGM, " + std::to_string(params.sgm_paths) + " paths";
  }

  // Matches one level into `disparity`; mirrors LevelMatcher in src/core/cpu_engine.cpp.
  void match_level(const AlgorithmInfo& algorithm, const StereoParams& params, int level,
                   LevelSize size, DeviceSearchRange range, bool final_level) {
    const std::string prefix = level > 0 ? "L" + std::to_string(level) + " " : "";
    const uint8_t* left = left_image(level);
    const uint8_t* right = right_image(level);
    const size_t pixels = static_cast<size_t>(size.width) * size.height;
    const size_t volume = pixels * range.count;
    constexpr double kNoLimit = std::numeric_limits<double>::infinity();

    WtaSettings wta;
    wta.uniqueness = final_level ? params.uniqueness : 0;
    wta.subpixel = params.subpixel || !final_level;
    wta.max_cost = kNoLimit;
    const double window_limit =
        params.bm_max_cost > 0.0f
            ? static_cast<double>(params.bm_max_cost) * params.window * params.window
            : kNoLimit;

    // The pixel probe reads the final level only; `tap` is null elsewhere.
    PixelProbeTaps* const tap = final_level ? probe : nullptr;
    if (tap != nullptr) tap->base(range.uniform_base, range.per_pixel_base, stream);

    auto select = [&](auto* costs) {
      {
        ScopedStage s(*events, prefix + "wta");
        winner_takes_all(costs, size.width, size.height, range, wta, disparity.data(), stream);
      }
      if (tap != nullptr) tap->selection(wta);
      if (final_level && params.lr_check) {
        ScopedStage s(*events, prefix + "lr-check");
        right_view_disparity(costs, size.width, size.height, range, right_disparity.data(), stream);
        lr_check(disparity.data(), right_disparity.data(), size.width, size.height,
                 params.lr_max_diff, stream);
        if (tap != nullptr) tap->disparity(disparity.data(), InvalidReason::LrCheck, stream);
      }
      if (final_level && wants_confidence(params)) {
        ScopedStage s(*events, prefix + "confidence");
        cost_peaks(costs, size.width, size.height, range.count, peaks.data(), stream);
      }
    };

    // 8-bit matching costs (census, rank): the fast SGM for uniform ranges, otherwise the
    // general cost volume, SGM (16-bit sums) and selection.
    auto match_8bit_costs = [&](const FastSgm::Frame& source, auto&& write_costs) {
      if (algorithm.aggregation == Aggregation::Sgm && range.per_pixel_base == nullptr &&
          FastSgm::supports(size.width, range.count, sgm_settings(params))) {
        fast_sgm(source, params, left, size, range, prefix, final_level, wta);
        return;
      }
      costs_u8.reserve(volume);
      {
        ScopedStage s(*events, prefix + "cost");
        write_costs(costs_u8.data());
      }
      if (tap != nullptr) {
        tap->matching(costs_u8.data(), CellType::U8, range.count, range.count,
                      source.rank_left != nullptr ? "rank difference" : "census", stream);
      }
      if (algorithm.aggregation != Aggregation::Sgm) {
        select(static_cast<const uint8_t*>(costs_u8.data()));
        return;
      }
      costs_u16.reserve(volume);
      {
        ScopedStage s(*events, prefix + "sgm");
        sgm_aggregate(costs_u8.data(), left, size.width, size.height, range, sgm_settings(params),
                      costs_u16.data(), stream);
      }
      if (tap != nullptr) {
        tap->aggregated(costs_u16.data(), CellType::U16, range.count, range.count,
                        sgm_probe_name(params), stream);
      }
      select(static_cast<const uint16_t*>(costs_u16.data()));
    };

    switch (algorithm.cost) {
      case MatchingCost::Census: {
        census_left.reserve(pixels);
        census_right.reserve(pixels);
        {
          ScopedStage s(*events, prefix + "census");
          // Missing values are input values: coarse 8-bit levels hold plain averages, so only the
          // input level (the final one) knows them; full-depth levels keep them (pyramid.cpp).
          const int missing = final_level || input16_left != nullptr ? params.missing_value : -1;
          if (inputf_left != nullptr) {
            census_transform(leftf_image(level), size.width, size.height, params.census, float_missing, census_left.data(), stream);
            census_transform(rightf_image(level), size.width, size.height, params.census, float_missing, census_right.data(), stream);
          } else if (input16_left != nullptr) {
            census_transform(left16_image(level), size.width, size.height, params.census, missing, census_left.data(), stream);
            census_transform(right16_image(level), size.width, size.height, params.census, missing, census_right.data(), stream);
          } else {
            census_transform(left, size.width, size.height, params.census, missing, census_left.data(), stream);
            census_transform(right, size.width, size.height, params.census, missing, census_right.data(), stream);
          }
        }
        FastSgm::Frame source{};
        source.census_left = census_left.data();
        source.census_right = census_right.data();
        source.window_bits = census_window_width(params.census) * census_window_height(params.census) - 1;
        match_8bit_costs(source, [&](uint8_t* costs) {
          census_cost_volume(census_left.data(), census_right.data(), size.width, size.height,
                             range, costs, stream);
        });
        return;
      }
      case MatchingCost::Rank: {
        ranks_left.reserve(pixels);
        ranks_right.reserve(pixels);
        {
          ScopedStage s(*events, prefix + "rank");
          rank_transform(left, size.width, size.height, params.rank_window, ranks_left.data(), stream);
          rank_transform(right, size.width, size.height, params.rank_window, ranks_right.data(), stream);
        }
        FastSgm::Frame source{};
        source.rank_left = ranks_left.data();
        source.rank_right = ranks_right.data();
        source.rank_window = params.rank_window;
        match_8bit_costs(source, [&](uint8_t* costs) {
          rank_cost_volume(ranks_left.data(), ranks_right.data(), size.width, size.height,
                           params.rank_window, range, range.count, costs, stream);
        });
        return;
      }
      case MatchingCost::Sad:
      case MatchingCost::Ssd: {
        if (algorithm.cost == MatchingCost::Sad && range.per_pixel_base == nullptr &&
            range.count <= 256 && sad_cost_volume16_supported(params.window)) {
          // 16-bit SAD costs and the fused selection: half the bytes, one pass to select.
          const size_t padded = static_cast<size_t>(32) * sgm_path_cells_per_lane(range.count);
          costs_u16.reserve(pixels * padded);
          {
            ScopedStage s(*events, prefix + "cost");
            sad_cost_volume16(left, right, size.width, size.height, params.window,
                              range.uniform_base, range.count, static_cast<int>(padded),
                              costs_u16.data(), stream);
          }
          wta.max_cost = window_limit;
          if (tap != nullptr) {
            tap->matching(costs_u16.data(), CellType::U16, padded, range.count, "window SAD",
                          stream);
            tap->selection(wta);
          }
          const bool lr = final_level && params.lr_check;
          ScopedStage s(*events, prefix + (lr ? "wta+lr" : "wta"));
          right_view_keys.reserve(pixels);
          select_disparity_from_costs16(costs_u16.data(), size.width, size.height,
                                        range.uniform_base, range.count, wta, lr,
                                        params.lr_max_diff, right_view_keys.data(),
                                        disparity.data(), stream,
                                        final_level && wants_confidence(params) ? peaks.data() : nullptr);
          if (lr && wants_confidence(params)) {
            right_view_from_keys(right_view_keys.data(), size.width, size.height,
                                 range.uniform_base, right_disparity.data(), stream);
          }
          if (tap != nullptr) tap->disparity(disparity.data(), InvalidReason::LrCheck, stream);
          return;
        }
        costs_u32.reserve(volume);
        {
          ScopedStage s(*events, prefix + "cost");
          if (algorithm.cost == MatchingCost::Sad) {
            sad_cost_volume(left, right, size.width, size.height, params.window, range, costs_u32.data(), stream);
          } else {
            ssd_cost_volume(left, right, size.width, size.height, params.window, range, costs_u32.data(), stream);
          }
        }
        if (tap != nullptr) {
          tap->matching(costs_u32.data(), CellType::U32, range.count, range.count,
                        algorithm.cost == MatchingCost::Sad ? "window SAD" : "window SSD", stream);
        }
        wta.max_cost = algorithm.cost == MatchingCost::Sad ? window_limit : window_limit * 255.0;
        select(static_cast<const uint32_t*>(costs_u32.data()));
        return;
      }
      case MatchingCost::TruncatedAd: {
        // ESAW / ESMP (Yu et al. 2009), as LevelMatcher::match_exponential_step.
        const EsawSettings esaw = esaw_settings(params);
        AdaptiveWeightVolumes volumes;
        costs_f32.reserve(volume);
        volumes.costs = costs_f32.data();
        if (esaw.half_storage) {
          adaptive_half.reserve(volume);
          adaptive_half_scratch.reserve(volume);
          volumes.costs_half = adaptive_half.data();
          volumes.scratch_half = adaptive_half_scratch.data();
        } else {
          adaptive_scratch.reserve(volume);
          volumes.scratch = adaptive_scratch.data();
        }
        {
          ScopedStage s(*events, prefix + "cost");
          if (esaw.half_storage) {
            truncated_ad_cost_volume(left, right, size.width, size.height, range, params.ad_lambda,
                                     params.ad_tau, volumes.costs_half, stream);
          } else {
            truncated_ad_cost_volume(left, right, size.width, size.height, range, params.ad_lambda,
                                     params.ad_tau, volumes.costs, stream);
          }
        }
        if (tap != nullptr) {
          const void* costs = esaw.half_storage ? static_cast<const void*>(volumes.costs_half)
                                                : static_cast<const void*>(volumes.costs);
          tap->matching(costs, esaw.half_storage ? CellType::F16 : CellType::F32, range.count,
                        range.count, "truncated AD", stream);
        }
        const bool esmp = algorithm.aggregation == Aggregation::Esmp;
        const MessageSettings messages = esmp_message_settings(params);
        {
          ScopedStage s(*events, prefix + (esmp ? "esmp" : "esaw"));
          // Coarse levels hold gray averages only: they weigh by gray (esaw_aggregation.cpp).
          const WeightGuide guide = level == 0 && level0_colour_left != nullptr
                                        ? WeightGuide::colour(level0_colour_left)
                                        : WeightGuide(left);
          adaptive_weight_aggregate(volumes, guide, size.width, size.height, range, esaw,
                                    esmp ? &messages : nullptr, stream);
        }
        if (tap != nullptr) {
          tap->aggregated(costs_f32.data(), CellType::F32, range.count, range.count,
                          esmp ? "ESMP" : "ESAW", stream);
        }
        select(static_cast<const float*>(costs_f32.data()));
        return;
      }
      case MatchingCost::Zncc: {
        costs_f32.reserve(volume);
        {
          ScopedStage s(*events, prefix + "cost");
          zncc_cost_volume(left, right, size.width, size.height, params.window, range, costs_f32.data(), stream);
        }
        if (tap != nullptr) {
          tap->matching(costs_f32.data(), CellType::F32, range.count, range.count, "1 - ZNCC",
                        stream);
        }
        wta.max_cost = params.zncc_min > -1.0f ? 1.0 - params.zncc_min : kNoLimit;
        select(static_cast<const float*>(costs_f32.data()));
        return;
      }
    }
    throw RuntimeError("unhandled matching cost of algorithm " + algorithm.name);
  }
};

CudaEngine::CudaEngine() : impl_(std::make_unique<Impl>()) {}

FrameCost CudaEngine::frame_cost(int width, int height, const StereoParams& params) const {
  return cuda_frame_cost(width, height, params);
}

std::optional<uint64_t> CudaEngine::free_device_bytes() const {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();  // clear it, so the next launch check does not report it
    return std::nullopt;
  }
  return free_bytes;
}

CudaEngine::~CudaEngine() {
  // Let queued work finish before the buffers it uses are freed.
  if (!impl_) return;
  cudaStreamSynchronize(impl_->stream);
  cudaStreamSynchronize(impl_->download_stream);
  for (cudaEvent_t e : {impl_->device_call_ready, impl_->device_call_done}) {
    if (e != nullptr) cudaEventDestroy(e);
  }
}

int CudaEngine::frames_in_flight() const { return static_cast<int>(impl_->pending.size()); }

bool CudaEngine::supports_high_bit_depth(const StereoParams& params) const {
  return supports(params) && high_bit_depth_problem(params).empty();
}

bool CudaEngine::supports_float_input(const StereoParams& params) const {
  return supports(params) && float_input_problem(params).empty();
}

bool CudaEngine::supports(const StereoParams& params) const {
  // Every registered algorithm runs on the GPU.
  return find_algorithm(params.algorithm) != nullptr;
}

void CudaEngine::Impl::require_acceptable(const FrameRequest& request) const {
  const StereoParams& params = request.params;
  const PairView& pair = request.pair;
  require_valid(params);
  if (find_algorithm(params.algorithm) == nullptr) {
    throw InputError(params.algorithm +
                     " is not available on the CUDA engine yet (use --engine cpu or auto)");
  }
  if (pair.left == nullptr || pair.right == nullptr || pair.width <= 0 || pair.height <= 0) {
    throw InputError("empty input image");
  }
  if (pair.memory == MemorySpace::Host &&
      (pair.width != pair.right_width || pair.height != pair.right_height)) {
    throw InputError("left and right images differ in size: " + std::to_string(pair.width) +
                     "x" + std::to_string(pair.height) + " vs " +
                     std::to_string(pair.right_width) + "x" + std::to_string(pair.right_height));
  }
  switch (pair.format) {
    case PixelFormat::Gray8:
    case PixelFormat::Rgb8: require_missing_value_fits(params, 255); break;
    case PixelFormat::Gray16: require_high_bit_depth_support(params); break;
    case PixelFormat::GrayFloat: require_float_input_support(params); break;
  }
  pyramid_sizes(pair.width, pair.height, params.pyramid_levels);
  require_views_fit(request);
  if (request.rectification) {
    const RectificationMaps& maps = *request.rectification;
    for (const ImageF32* plane : {&maps.left_y, &maps.right_x, &maps.right_y}) {
      if (maps.left_x.empty() || !plane->same_size(maps.left_x)) {
        throw InputError("rectification maps must be four non-empty planes of one size");
      }
    }
    if (request.rectification->width() != pair.width ||
        request.rectification->height() != pair.height) {
      throw InputError("the rectification maps are " +
                       std::to_string(request.rectification->width()) + "x" +
                       std::to_string(request.rectification->height()) + " but the pair is " +
                       std::to_string(pair.width) + "x" + std::to_string(pair.height));
    }
  }
}

FrameSlot* CudaEngine::Impl::free_slot() {
  for (FrameSlot& slot : slots) {
    if (!slot.in_flight) return &slot;
  }
  // Both busy: the older one is finished into a host result that collect() returns in its turn.
  for (PendingFrame& frame : pending) {
    if (frame.slot < 0) continue;
    FrameSlot& slot = slots[frame.slot];
    auto result = std::make_unique<DisparityResult>();
    frame.slot = -1;
    try {
      finish(slot, *result);
      frame.done = std::move(result);
    } catch (...) {
      frame.error = std::current_exception();
    }
    return &slot;
  }
  throw RuntimeError("CudaEngine: no slot is free and none is in flight");
}

void CudaEngine::submit(const FrameRequest& request) {
  Impl& d = *impl_;
  d.release_uploaded_inputs();
  PendingFrame frame;
  try {
    d.require_acceptable(request);
    FrameSlot& slot = *d.free_slot();
    d.launch(request, slot);
    frame.slot = static_cast<int>(&slot - d.slots);
  } catch (const InputError&) {
    frame.error = std::current_exception();
  }
  d.pending.push_back(std::move(frame));
}

void CudaEngine::collect(DisparityResult& result) {
  Impl& d = *impl_;
  if (d.pending.empty()) throw RuntimeError("CudaEngine: collect() without a submitted frame");
  d.release_uploaded_inputs();
  PendingFrame frame = std::move(d.pending.front());
  d.pending.pop_front();
  if (frame.error) std::rethrow_exception(frame.error);
  if (frame.done) {
    result = std::move(*frame.done);
    return;
  }
  d.finish(d.slots[frame.slot], result);
}

void CudaEngine::Impl::prepare_input(const FrameRequest& request, const void* left,
                                     const void* right, const Rgb8* views_left,
                                     const Rgb8* views_right, StageEvents& frame_events) {
  const StereoParams& params = request.params;
  const int width = request.pair.width, height = request.pair.height;
  const size_t pixels = static_cast<size_t>(width) * height;
  events = &frame_events;
  level0_colour_left = nullptr;
  input16_left = input16_right = nullptr;
  inputf_left = inputf_right = nullptr;
  const bool rectify = static_cast<bool>(request.rectification);
  if (rectify) rectification.set(request.rectification, stream);
  switch (request.pair.format) {
    case PixelFormat::Rgb8: {
      const Rgb8* colour_left = static_cast<const Rgb8*>(left);
      const Rgb8* colour_right = static_cast<const Rgb8*>(right);
      if (rectify) {
        ScopedStage s(frame_events, "rectify");
        rectification.rectify(colour_left, colour_right, stream);
        level0_left = rectification.gray_left();
        level0_right = rectification.gray_right();
        if (uses_colour_weights(params)) level0_colour_left = rectification.colour_left();
      } else {
        view_left.reserve(pixels);
        view_right.reserve(pixels);
        ScopedStage s(frame_events, "gray");
        colour_to_gray(colour_left, pixels, view_left.data(), stream);
        colour_to_gray(colour_right, pixels, view_right.data(), stream);
        level0_left = view_left.data();
        level0_right = view_right.data();
        if (uses_colour_weights(params)) level0_colour_left = colour_left;
      }
      return;
    }
    case PixelFormat::GrayFloat: {
      // cudaMalloc aligns far beyond 4 bytes, so the slot's bytes can be read as floats.
      inputf_left = static_cast<const float*>(left);
      inputf_right = static_cast<const float*>(right);
      if (rectify) {
        ScopedStage s(frame_events, "rectify");
        rectification.rectify(inputf_left, inputf_right, stream);
        inputf_left = rectification.leftf();
        inputf_right = rectification.rightf();
        if (views_left != nullptr) rectification.rectify(views_left, views_right, stream);
      }
      float_missing = float_missing_value(params);
      view_left.reserve(pixels);
      view_right.reserve(pixels);
      float_range.reserve(1);
      float_range_keys.reserve(2);
      // The view's range is the (rectified) pair's, found here: no host pass over the planes.
      ScopedStage s(frame_events, "8-bit view");
      float_view_range(inputf_left, inputf_right, pixels, float_missing, float_range_keys.data(),
                       float_range.data(), stream);
      eight_bit_view(inputf_left, width, height, float_range.data(), view_left.data(), stream);
      eight_bit_view(inputf_right, width, height, float_range.data(), view_right.data(), stream);
      level0_left = view_left.data();
      level0_right = view_right.data();
      return;
    }
    case PixelFormat::Gray16: {
      input16_left = static_cast<const uint16_t*>(left);
      input16_right = static_cast<const uint16_t*>(right);
      if (rectify) {
        ScopedStage s(frame_events, "rectify");
        rectification.rectify(input16_left, input16_right, stream);
        input16_left = rectification.left16();
        input16_right = rectification.right16();
        if (views_left != nullptr) rectification.rectify(views_left, views_right, stream);
      }
      view_left.reserve(pixels);
      view_right.reserve(pixels);
      ScopedStage s(frame_events, "8-bit view");
      eight_bit_view(input16_left, width, height, view_left.data(), stream);
      eight_bit_view(input16_right, width, height, view_right.data(), stream);
      level0_left = view_left.data();
      level0_right = view_right.data();
      return;
    }
    case PixelFormat::Gray8: {
      level0_left = static_cast<const uint8_t*>(left);
      level0_right = static_cast<const uint8_t*>(right);
      if (rectify) {
        ScopedStage s(frame_events, "rectify");
        rectification.rectify(level0_left, level0_right, stream);
        level0_left = rectification.gray_left();
        level0_right = rectification.gray_right();
      }
      return;
    }
  }
}

void CudaEngine::Impl::launch(const FrameRequest& request, FrameSlot& slot) {
  const StereoParams& params = request.params;
  const int width = request.pair.width, height = request.pair.height;
  const size_t pixels = static_cast<size_t>(width) * height;
  const ResultParts& want = request.want;
  const bool device_input = request.pair.memory == MemorySpace::Device;
  const PixelFormat format = request.pair.format;
  const bool deep = format == PixelFormat::Gray16 || format == PixelFormat::GrayFloat;
  const bool given_views = request.views.left != nullptr;
  // The rectified colour views: a raw colour pair's, or the views given with a raw deep pair.
  const bool rectifies_views =
      request.rectification && (format == PixelFormat::Rgb8 || given_views);

  slot.events.begin_frame();
  slot.staging_copy_ms = 0.0;
  const void* left = request.pair.left;
  const void* right = request.pair.right;
  const Rgb8* views_left = static_cast<const Rgb8*>(request.views.left);
  const Rgb8* views_right = static_cast<const Rgb8*>(request.views.right);
  if (!device_input) {
    // The slot's device planes are free once its previous frame no longer reads them (the
    // rectified views and planes it downloaded from them are down: that frame was finished
    // before the slot was handed out again).
    SV_CUDA_CHECK(cudaStreamWaitEvent(upload_stream, slot.consumed, 0));
    bool begun = false;
    slot.staging_copy_ms = upload(slot, request.pair, slot.input, begun);
    if (given_views) slot.staging_copy_ms += upload(slot, request.views, slot.views, begun);
    slot.events.end(upload_stream);
    SV_CUDA_CHECK(cudaEventRecord(slot.uploaded, upload_stream));
    SV_CUDA_CHECK(cudaStreamWaitEvent(stream, slot.uploaded, 0));
    left = slot.input.left.data();
    right = slot.input.right.data();
    if (given_views) {
      views_left = reinterpret_cast<const Rgb8*>(slot.views.left.data());
      views_right = reinterpret_cast<const Rgb8*>(slot.views.right.data());
    }
  }
  prepare_input(request, left, right, views_left, views_right, slot.events);
  slot.probe.begin(want.probe, width, height);
  probe = &slot.probe;
  run_pipeline(params, width, height);
  probe = nullptr;
  SV_CUDA_CHECK(cudaEventRecord(slot.consumed, stream));

  // The results this frame returns, copied out of the pipeline's buffers so the next frame can
  // start at once; the slot's previous download is long complete (it was collected).
  slot.has_fixed = want.fixed;
  slot.has_float = want.floating;
  slot.has_confidence = want.confidence && wants_confidence(params);
  slot.has_views = want.rectified_views && rectifies_views;
  slot.planes = want.rectified_views && request.rectification && deep ? format : PixelFormat::Gray8;
  {
    ScopedStage s(slot.events, "results");
    if (slot.has_fixed) {
      slot.out_fixed.reserve(pixels);
      SV_CUDA_CHECK(cudaMemcpyAsync(slot.out_fixed.data(), disparity.data(),
                                    pixels * sizeof(int16_t), cudaMemcpyDeviceToDevice, stream));
    }
    if (slot.has_float) {
      slot.out_float.reserve(pixels);
      fixed_to_float_disparity(disparity.data(), pixels, slot.out_float.data(), stream);
    }
    if (slot.has_confidence) {
      slot.out_confidence.reserve(pixels);
      SV_CUDA_CHECK(cudaMemcpyAsync(slot.out_confidence.data(), confidence.data(),
                                    pixels * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    }
    // The rectified views and planes are copied into the slot's own upload buffers (its raw
    // planes are read no more; the slot is uploaded to again only once this frame is finished),
    // so they download on the download stream while the next frame's remap overwrites
    // the rectification's buffers.
    if (slot.has_views) {
      const size_t bytes = pixels * sizeof(Rgb8);
      PlaneUpload& out = given_views ? slot.views : slot.input;
      out.left.reserve(bytes);
      out.right.reserve(bytes);
      SV_CUDA_CHECK(cudaMemcpyAsync(out.left.data(), rectification.colour_left(), bytes,
                                    cudaMemcpyDeviceToDevice, stream));
      SV_CUDA_CHECK(cudaMemcpyAsync(out.right.data(), rectification.colour_right(), bytes,
                                    cudaMemcpyDeviceToDevice, stream));
    }
    if (slot.planes != PixelFormat::Gray8) {
      const bool sixteen = slot.planes == PixelFormat::Gray16;
      const size_t bytes = pixels * request.pair.bytes_per_pixel();
      const void* planes_left = sixteen ? static_cast<const void*>(rectification.left16())
                                        : static_cast<const void*>(rectification.leftf());
      const void* planes_right = sixteen ? static_cast<const void*>(rectification.right16())
                                         : static_cast<const void*>(rectification.rightf());
      slot.input.left.reserve(bytes);
      slot.input.right.reserve(bytes);
      SV_CUDA_CHECK(cudaMemcpyAsync(slot.input.left.data(), planes_left, bytes,
                                    cudaMemcpyDeviceToDevice, stream));
      SV_CUDA_CHECK(cudaMemcpyAsync(slot.input.right.data(), planes_right, bytes,
                                    cudaMemcpyDeviceToDevice, stream));
    }
  }
  slot.device_result =
      want.device ? device_results.copy(disparity.data(), width, height, stream) : nullptr;
  slot.device_views = want.device && rectifies_views
                          ? device_views_pool.copy(rectification.colour_left(),
                                                   rectification.colour_right(), width, height,
                                                   stream)
                          : nullptr;
  SV_CUDA_CHECK(cudaEventRecord(slot.computed, stream));

  SV_CUDA_CHECK(cudaStreamWaitEvent(download_stream, slot.computed, 0));
  slot.events.begin("download", download_stream);
  // Each part straight into the host block its result image will be (or into staging).
  if (slot.has_fixed) {
    const size_t bytes = pixels * sizeof(int16_t);
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.fixed_host.prepare(result_pool, bytes),
                                  slot.out_fixed.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
  }
  if (slot.has_float) {
    const size_t bytes = pixels * sizeof(float);
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.float_host.prepare(result_pool, bytes),
                                  slot.out_float.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
  }
  if (slot.has_confidence) {
    const size_t bytes = pixels * sizeof(float);
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.confidence_host.prepare(result_pool, bytes),
                                  slot.out_confidence.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
  }
  if (slot.has_views) {
    const size_t bytes = pixels * sizeof(Rgb8);
    const PlaneUpload& out = given_views ? slot.views : slot.input;
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.left_view_host.prepare(result_pool, bytes), out.left.data(),
                                  bytes, cudaMemcpyDeviceToHost, download_stream));
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.right_view_host.prepare(result_pool, bytes),
                                  out.right.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
  }
  if (slot.planes != PixelFormat::Gray8) {
    const size_t bytes = pixels * request.pair.bytes_per_pixel();
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.left_plane_host.prepare(result_pool, bytes),
                                  slot.input.left.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
    SV_CUDA_CHECK(cudaMemcpyAsync(slot.right_plane_host.prepare(result_pool, bytes),
                                  slot.input.right.data(), bytes, cudaMemcpyDeviceToHost,
                                  download_stream));
  }
  slot.events.end(download_stream);
  SV_CUDA_CHECK(cudaEventRecord(slot.finished, download_stream));
  slot.width = width;
  slot.height = height;
  slot.in_flight = true;
}

double CudaEngine::Impl::upload(FrameSlot& slot, const PairView& pair, PlaneUpload& to,
                                bool& begun) {
  const size_t bytes = static_cast<size_t>(pair.width) * pair.height * pair.bytes_per_pixel();
  to.left.reserve(bytes);
  to.right.reserve(bytes);
  const auto send = [&](void* device, const void* host) {
    if (!begun) slot.events.begin("upload", upload_stream);
    begun = true;
    SV_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, upload_stream));
  };
  if (uploads_directly(pair.left, pair.left_block, bytes) &&
      uploads_directly(pair.right, pair.right_block, bytes)) {
    // Pooled pinned planes go up as they are; the slot holds their blocks until the upload
    // has read them (the slot's previous blocks went back when that upload completed).
    to.held_left = pair.left_block;
    to.held_right = pair.right_block;
    send(to.left.data(), pair.left);
    send(to.right.data(), pair.right);
    return 0.0;
  }
  to.staging.reserve(2 * bytes);
  // The staging is free once this slot's previous upload has completed; each view is sent as
  // soon as it is staged, so the copy of the right view overlaps the upload of the left. The
  // host's staging copy before the first send is host time (staging_copy_ms), not the upload's.
  SV_CUDA_CHECK(cudaEventSynchronize(slot.uploaded));
  const auto copy_start = std::chrono::steady_clock::now();
  parallel_copy(to.staging.data(), pair.left, bytes);
  send(to.left.data(), to.staging.data());
  parallel_copy(to.staging.data() + bytes, pair.right, bytes);
  send(to.right.data(), to.staging.data() + bytes);
  return milliseconds_since(copy_start);
}

void CudaEngine::Impl::finish(FrameSlot& slot, DisparityResult& result) {
  slot.in_flight = false;
  // The host waits here for the GPU (in collect(), or in a submit() that needs the slot): time
  // the frame loops take out of their host time (StageTimings::collect_wait_ms).
  const auto wait_start = std::chrono::steady_clock::now();
  SV_CUDA_CHECK(cudaEventSynchronize(slot.finished));
  const double waited_ms = milliseconds_since(wait_start);
  // The upload is complete: the pair's pooled blocks go back to their pool.
  slot.input.release();
  slot.views.release();
  result.timings = slot.events.collect();
  result.timings.collect_wait_ms = waited_ms;
  result.width = slot.width;
  result.height = slot.height;
  const int w = slot.width, h = slot.height;
  double copy_ms = slot.staging_copy_ms;
  if (slot.has_fixed) {
    copy_ms += slot.fixed_host.deliver(w, h, result.disparity_fixed);
  } else {
    result.disparity_fixed = ImageI16();
  }
  if (slot.has_float) {
    copy_ms += slot.float_host.deliver(w, h, result.disparity);
  } else {
    result.disparity = ImageF32();
  }
  if (slot.has_confidence) {
    copy_ms += slot.confidence_host.deliver(w, h, result.confidence);
  } else {
    result.confidence = ImageF32();
  }
  if (slot.has_views) {
    copy_ms += slot.left_view_host.deliver(w, h, result.rectified_left);
    copy_ms += slot.right_view_host.deliver(w, h, result.rectified_right);
  } else {
    result.rectified_left = ImageRgb8();
    result.rectified_right = ImageRgb8();
  }
  result.rectified_left16 = ImageU16();
  result.rectified_right16 = ImageU16();
  result.rectified_leftf = ImageF32();
  result.rectified_rightf = ImageF32();
  if (slot.planes == PixelFormat::Gray16) {
    copy_ms += slot.left_plane_host.deliver(w, h, result.rectified_left16);
    copy_ms += slot.right_plane_host.deliver(w, h, result.rectified_right16);
  } else if (slot.planes == PixelFormat::GrayFloat) {
    copy_ms += slot.left_plane_host.deliver(w, h, result.rectified_leftf);
    copy_ms += slot.right_plane_host.deliver(w, h, result.rectified_rightf);
  }
  result.timings.host_copy_ms = copy_ms;
  result.device = std::move(slot.device_result);
  result.device_views = std::move(slot.device_views);
  result.probe = slot.probe.finish();
}

void CudaEngine::Impl::release_uploaded_inputs() {
  for (FrameSlot& slot : slots) {
    if (!slot.input.holds_blocks() && !slot.views.holds_blocks()) continue;
    const cudaError_t status = cudaEventQuery(slot.uploaded);
    if (status == cudaErrorNotReady) continue;
    SV_CUDA_CHECK(status);
    slot.input.release();
    slot.views.release();
  }
}

std::shared_ptr<HostMemory> CudaEngine::host_memory() const { return pinned_host_memory(); }

void CudaEngine::compute_on_device(const PairView& pair, const StereoParams& params,
                                   int16_t* disparity_fixed, float* disparity,
                                   cudaStream_t caller_stream) {
  Impl& d = *impl_;
  if (pair.memory != MemorySpace::Device) {
    throw InputError("compute_on_device takes a pair in device memory (PairView::memory)");
  }
  if (disparity_fixed == nullptr) throw InputError("compute_on_device needs an output buffer");
  FrameRequest request;
  request.pair = pair;
  request.params = params;
  d.require_acceptable(request);
  if (d.device_call_ready == nullptr) {
    SV_CUDA_CHECK(cudaEventCreateWithFlags(&d.device_call_ready, cudaEventDisableTiming));
    SV_CUDA_CHECK(cudaEventCreateWithFlags(&d.device_call_done, cudaEventDisableTiming));
  }
  SV_CUDA_CHECK(cudaEventRecord(d.device_call_ready, caller_stream));
  SV_CUDA_CHECK(cudaStreamWaitEvent(d.stream, d.device_call_ready, 0));
  d.device_call_events.begin_frame();
  d.prepare_input(request, pair.left, pair.right, nullptr, nullptr, d.device_call_events);
  d.probe = nullptr;  // no probe on this path
  d.run_pipeline(params, pair.width, pair.height);
  const size_t pixels = static_cast<size_t>(pair.width) * pair.height;
  {
    ScopedStage s(d.device_call_events, "results");
    SV_CUDA_CHECK(cudaMemcpyAsync(disparity_fixed, d.disparity.data(), pixels * sizeof(int16_t),
                                  cudaMemcpyDeviceToDevice, d.stream));
    if (disparity != nullptr) fixed_to_float_disparity(d.disparity.data(), pixels, disparity, d.stream);
  }
  SV_CUDA_CHECK(cudaEventRecord(d.device_call_done, d.stream));
  SV_CUDA_CHECK(cudaStreamWaitEvent(caller_stream, d.device_call_done, 0));
}

StageTimings CudaEngine::last_device_call_timings() const {
  if (impl_->device_call_done == nullptr) return {};
  SV_CUDA_CHECK(cudaEventSynchronize(impl_->device_call_done));
  return impl_->device_call_events.collect();
}

// The coarse levels of both views, as run_pipeline in src/core/cpu_engine.cpp: 8-bit input is
// averaged as it is; 16-bit and float input is reduced at full depth, and each coarse level's
// 8-bit image is the 8-bit view of its full-depth plane.
void CudaEngine::Impl::build_coarse_levels(const StereoParams& params, const std::vector<LevelSize>& sizes) {
  const int levels = static_cast<int>(sizes.size()) - 1;
  if (input16_left != nullptr) {
    left16_levels.resize(levels + 1);
    right16_levels.resize(levels + 1);
  } else if (inputf_left != nullptr) {
    leftf_levels.resize(levels + 1);
    rightf_levels.resize(levels + 1);
  }
  for (int i = 1; i <= levels; ++i) {
    const LevelSize in = sizes[i - 1], out = sizes[i];
    const size_t n = static_cast<size_t>(out.width) * out.height;
    if (input16_left != nullptr) {
      left16_levels[i].reserve(n);
      right16_levels[i].reserve(n);
      downsample_2x2(left16_image(i - 1), in.width, in.height, params.missing_value, left16_levels[i].data(), stream);
      downsample_2x2(right16_image(i - 1), in.width, in.height, params.missing_value, right16_levels[i].data(), stream);
      eight_bit_view(left16_levels[i].data(), out.width, out.height, left_levels[i].data(), stream);
      eight_bit_view(right16_levels[i].data(), out.width, out.height, right_levels[i].data(), stream);
    } else if (inputf_left != nullptr) {
      leftf_levels[i].reserve(n);
      rightf_levels[i].reserve(n);
      downsample_2x2(leftf_image(i - 1), in.width, in.height, float_missing, leftf_levels[i].data(), stream);
      downsample_2x2(rightf_image(i - 1), in.width, in.height, float_missing, rightf_levels[i].data(), stream);
      eight_bit_view(leftf_levels[i].data(), out.width, out.height, float_range.data(),
                     left_levels[i].data(), stream);
      eight_bit_view(rightf_levels[i].data(), out.width, out.height, float_range.data(),
                     right_levels[i].data(), stream);
    } else {
      downsample_2x2(left_image(i - 1), in.width, in.height, left_levels[i].data(), stream);
      downsample_2x2(right_image(i - 1), in.width, in.height, right_levels[i].data(), stream);
    }
  }
}

// Everything between the upload and the download, on the compute stream; the result is left in
// `disparity`. Mirrors CpuEngine::compute stage for stage.
void CudaEngine::Impl::run_pipeline(const StereoParams& params, int width, int height) {
  const AlgorithmInfo& algorithm = *find_algorithm(params.algorithm);
  const int levels = params.pyramid_levels;
  const std::vector<LevelSize> sizes = pyramid_sizes(width, height, levels);

  // Grow-only buffers: steady-state frames of one size allocate nothing.
  left_levels.resize(levels + 1);
  right_levels.resize(levels + 1);
  range_base.resize(levels + 1);
  const size_t full_pixels = static_cast<size_t>(width) * height;
  for (int i = 1; i <= levels; ++i) {
    const size_t n = static_cast<size_t>(sizes[i].width) * sizes[i].height;
    left_levels[i].reserve(n);
    right_levels[i].reserve(n);
  }
  for (int i = 0; i < levels; ++i) range_base[i].reserve(static_cast<size_t>(sizes[i].width) * sizes[i].height);
  disparity.reserve(full_pixels);
  disparity_scratch.reserve(full_pixels);
  right_disparity.reserve(full_pixels);
  if (wants_confidence(params)) {
    peaks.reserve(full_pixels);
    confidence.reserve(full_pixels);
    confidence_scratch.reserve(full_pixels);
  }

  if (levels > 0) {
    ScopedStage s(*events, "pyramid");
    build_coarse_levels(params, sizes);
  }

  const SearchRange coarse = coarse_search_range(params.min_disparity, params.num_disparities, levels);
  DeviceSearchRange range{coarse.uniform_base(), nullptr, coarse.count()};
  for (int level = levels; level >= 0; --level) {
    match_level(algorithm, params, level, sizes[level], range, level == 0);
    if (level > 0) {
      const LevelSize finer = sizes[level - 1];
      refine_search_range(disparity.data(), sizes[level].width, sizes[level].height, finer.width,
                          finer.height, params.refine_radius, params.min_disparity,
                          params.num_disparities, level - 1, range_base[level - 1].data(), stream);
      range = DeviceSearchRange{0, range_base[level - 1].data(),
                                refined_search_count(params.refine_radius, params.min_disparity,
                                                     params.num_disparities, level - 1)};
    }
  }

  // As the CPU engine: confidence, repair, threshold, before the filters change the disparities.
  if (wants_confidence(params)) {
    const ConfidenceSettings settings = confidence_settings(params);
    {
      ScopedStage s(*events, "confidence");
      texture_deviation(left_image(0), width, height, settings.texture_window_width,
                        settings.texture_window_height, confidence_scratch.data(), stream);
      combined_confidence(disparity.data(), peaks.data(), confidence_scratch.data(),
                          params.lr_check ? right_disparity.data() : nullptr, width, height,
                          settings, confidence.data(), stream);
    }
    if (params.repair) {
      ScopedStage s(*events, "repair");
      repair_disparity(disparity.data(), confidence.data(), width, height, RepairSettings{},
                       disparity_scratch.data(), confidence_scratch.data(), stream);
      if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::Confidence, stream);
    }
    if (params.confidence_threshold > 0.0f) {
      ScopedStage s(*events, "threshold");
      apply_confidence_threshold(disparity.data(), confidence.data(), width, height,
                                 params.confidence_threshold, stream);
      if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::Confidence, stream);
    }
  }
  if (params.median > 1) {
    ScopedStage s(*events, "median");
    median_filter(disparity.data(), disparity_scratch.data(), width, height, params.median, stream);
    std::swap(disparity, disparity_scratch);
    if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::Median, stream);
  }
  if (params.speckle_size > 0) {
    ScopedStage s(*events, "speckle");
    labels.reserve(full_pixels);
    counts.reserve(full_pixels);
    remove_speckles(disparity.data(), width, height, params.speckle_size, params.speckle_range,
                    labels.data(), counts.data(), stream);
    if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::Speckle, stream);
  }
  // Before the fill, as the CPU engine. Frames run in submission order on this one stream, so
  // the state is always the previous frame's.
  if (params.temporal_filter) {
    ScopedStage s(*events, "temporal");
    const bool fresh = temporal_width != width || temporal_height != height ||
                       !same_matching(temporal_params, params);
    temporal_params = params;
    temporal_previous.reserve(full_pixels);
    temporal_age.reserve(full_pixels);
    temporal_filter(disparity.data(), temporal_previous.data(), temporal_age.data(), width,
                    height, fresh, temporal_filter_settings(params), stream);
    temporal_width = width;
    temporal_height = height;
    if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::Temporal, stream);
  } else {
    temporal_width = temporal_height = 0;
  }
  if (params.fill_holes) {
    ScopedStage s(*events, "fill");
    fill_holes(disparity.data(), width, height, stream);
    if (probe != nullptr) probe->disparity(disparity.data(), InvalidReason::None, stream);
  }
}

}  // namespace sv::cuda
