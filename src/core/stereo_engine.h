#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/error.h"
#include "src/core/host_memory.h"
#include "src/core/image.h"
#include "src/core/pixel_costs.h"
#include "src/core/stage_timings.h"
#include "src/core/stereo_params.h"

namespace sv {

struct RectificationMaps;  // remap.h

// A result still held on the engine's device (the CUDA engine's DeviceDisparity), so a display
// on the same GPU can show it without a host round trip. Opaque here: the core knows no CUDA.
class DeviceResult {
 public:
  virtual ~DeviceResult() = default;
};

// The pixels of a request's pair.
enum class PixelFormat { Gray8, Rgb8, Gray16, GrayFloat };
const char* pixel_format_name(PixelFormat format);

// Where a request's pair lies: host memory, or device memory of the engine's GPU (the CUDA
// engine; accepts_device_input()).
enum class MemorySpace { Host, Device };

// A stereo pair as a request borrows it: two dense row-major planes (stride = width) of one
// format and size. Host planes are copied before submit() returns, unless they lie in pooled
// blocks (left_block / right_block) of memory the engine uploads from directly: the engine then
// holds the blocks, which keeps them out of their pool, until its upload has read them. Device
// planes are read until the frame is collected, so they must stay untouched until then.
struct PairView {
  PixelFormat format = PixelFormat::Gray8;
  MemorySpace memory = MemorySpace::Host;
  const void* left = nullptr;
  const void* right = nullptr;
  int width = 0, height = 0;
  // Host images; both sizes are kept, so a mismatch is reported when the frame is computed.
  static PairView of(const ImageU8& left, const ImageU8& right);
  static PairView of(const ImageRgb8& left, const ImageRgb8& right);
  static PairView of(const ImageU16& left, const ImageU16& right);
  static PairView of(const ImageF32& left, const ImageF32& right);
  int right_width = 0, right_height = 0;  // the right plane's size (equal when valid)
  // The pooled blocks the host planes lie in (Image::block()), null for images of their own.
  std::shared_ptr<PixelBlock> left_block, right_block;
  size_t bytes_per_pixel() const;
};

// What a frame's result carries: only what is asked for is computed, converted and copied.
struct ResultParts {
  bool fixed = true;             // disparity_fixed (1/16 px)
  bool floating = true;          // disparity (float px)
  bool confidence = true;        // confidence, when the parameters compute one
  // The rectified views (and a 16-bit or float pair's planes) when the engine rectified them.
  bool rectified_views = true;
  bool device = false;           // the results kept on the engine's device, for a display
  // This pixel's costs and selection (DisparityResult::probe): a few hundred bytes, never the
  // volume, fetched from the engine's device where it has one.
  std::optional<ProbePixel> probe;
  static ResultParts fixed_only() { return {true, false, false, false, false, std::nullopt}; }
};

// One frame for an engine: the pair, its parameters, what to return, and, for a RAW pair that
// the engine is to rectify, the maps (null: the pair is rectified already). Engines that cannot
// rectify themselves (can_rectify() false) rectify such a pair on the host, bit for bit the same.
struct FrameRequest {
  PairView pair;
  StereoParams params;
  ResultParts want;
  std::shared_ptr<const RectificationMaps> rectification;
  // A RAW 16-bit or float pair's colour views (what a display shows, PairView::of(ImageRgb8..)),
  // the pair's size and in its memory: rectified beside the pair and returned as its rectified
  // views, so that no remap of the frame is left to the host. Empty otherwise (a colour pair's
  // views are the pair itself).
  PairView views;
};

// What an engine returns for one pair, in the left view. Each image is empty unless asked for
// (ResultParts) and computed.
struct DisparityResult {
  ImageF32 disparity;        // px, kInvalidDisparity (+inf) where no match survived
  ImageI16 disparity_fixed;  // the same in 1/16 px fixed point: the exact, comparable result
  // Per-pixel confidence in [0, 1] (confidence.h), 0 where the selection found no match; only
  // where the parameters ask for it (confidence, confidence-threshold or repair).
  ImageF32 confidence;
  StageTimings timings;
  // want.device: the disparity still on the engine's device (the CUDA engine's DeviceDisparity).
  std::shared_ptr<const DeviceResult> device;
  // want.rectified_views, for a pair the request had rectified: the rectified colour views the
  // disparity belongs to (a colour pair, or the views of a 16-bit or float one, request.views),
  // and a 16-bit or float pair's rectified planes.
  ImageRgb8 rectified_left, rectified_right;
  ImageU16 rectified_left16, rectified_right16;
  ImageF32 rectified_leftf, rectified_rightf;
  // Both: the same views still on the device (the CUDA engine's DeviceViews).
  std::shared_ptr<const DeviceResult> device_views;
  int width = 0, height = 0;  // the frame's size, whatever was returned
  // want.probe: that pixel's costs, or why the engine has none for it (PixelCosts::unavailable).
  std::optional<PixelCosts> probe;
};

// What one frame costs an engine, estimated before anything is allocated, so that a frame that
// cannot fit is refused with the numbers instead of failing (or swapping) halfway
// (frame_budget.h checks it before the first frame of each size).
struct FrameCost {
  uint64_t host_bytes = 0;    // peak host memory of the frame, its input images excluded
  uint64_t device_bytes = 0;  // peak device memory; 0 for an engine without a device
  double seconds = 0.0;       // expected time of the frame; 0 when not estimated (fast engines)
  // Set when the engine takes a much slower path for these parameters than for others of the
  // same algorithm (the SIMD CPU engine leaves the confidence to the reference): why, for a
  // notice before the first frame whatever its time.
  std::string slower_path;
};

// The contract shared by the CPU engines and the CUDA engine: the same parameters give the same
// disparities (bit for bit on integer pipelines). One interface for every caller: submit() queues
// a frame and returns at once, collect() returns the frames in the order they were submitted, so
// a frame loop keeps the engine busy while it uses the previous result (the CUDA engine uploads
// the next pair while it computes; the CPU engines compute on their own worker thread).
// A bad frame (parameters, sizes) does not stop the stream: its collect() throws its InputError
// (RuntimeError for a failure), and the frames after it are computed as usual.
class StereoEngine {
 public:
  virtual ~StereoEngine() = default;
  virtual std::string name() const = 0;

  // Queues a frame. Never throws for the frame's content; see PairView for the planes' lifetime.
  virtual void submit(const FrameRequest& request) = 0;
  // The oldest submitted frame, waiting for it; its images land in `result`, whose buffers are
  // reused when their sizes fit (a frame loop that keeps one result allocates nothing). Throws
  // the frame's error, and RuntimeError when no frame was submitted.
  virtual void collect(DisparityResult& result) = 0;
  DisparityResult collect();
  // Frames submitted and not yet collected.
  virtual int frames_in_flight() const = 0;

  // One frame, synchronously: submit() then collect(); only with no frame in flight.
  DisparityResult compute(const FrameRequest& request);
  DisparityResult compute(const ImageU8& left, const ImageU8& right, const StereoParams& params);
  // Colour input: ESAW / ESMP with `colour-weights` (uses_colour_weights in esaw_aggregation.h)
  // weigh with the left colour image; everything else matches the gray views (to_gray).
  DisparityResult compute(const ImageRgb8& left, const ImageRgb8& right, const StereoParams& params);
  // 16-bit gray input: the census compares the full 16-bit values, everything after it is the
  // 8-bit pipeline (high_bit_depth.h); engines that cannot say so in supports_high_bit_depth()
  // and refuse with an InputError, since a silent reduction to 8 bits would lose the data.
  DisparityResult compute(const ImageU16& left, const ImageU16& right, const StereoParams& params);
  // Float gray input, the same way (NaN = missing; the rest on the pair's 8-bit view).
  DisparityResult compute(const ImageF32& left, const ImageF32& right, const StereoParams& params);

  // Whether 16-bit / float input is matched at full depth with `params` (census algorithms).
  virtual bool supports_high_bit_depth(const StereoParams& /*params*/) const { return false; }
  virtual bool supports_float_input(const StereoParams& /*params*/) const { return false; }
  // Whether a request's rectification runs in the engine (the CUDA engine's GPU remap,
  // shared/ARCHITECTURE.md) rather than on the host before matching.
  virtual bool can_rectify() const { return false; }
  // Whether requests may hold device planes (MemorySpace::Device).
  virtual bool accepts_device_input() const { return false; }
  // False for an algorithm this engine has no implementation of (a frontend then routes the
  // frame to the CPU reference instead).
  virtual bool supports(const StereoParams& /*params*/) const { return true; }
  // The cost of one frame of this size with `params` (valid parameters); the default knows
  // nothing and says zero. Throws InputError for a size compute() would refuse (a pyramid
  // deeper than the image allows).
  virtual FrameCost frame_cost(int /*width*/, int /*height*/, const StereoParams& /*params*/) const {
    return {};
  }
  // The device memory free now (the CUDA engine asks the driver); nullopt without a device.
  virtual std::optional<uint64_t> free_device_bytes() const { return std::nullopt; }
  // The host memory this engine reads pairs from and writes results to without a host copy
  // (host_memory.h): a frame loop's pair pool (block_pool.h) is made of it. Plain memory here;
  // page-locked memory on the CUDA engine.
  virtual std::shared_ptr<HostMemory> host_memory() const { return plain_host_memory(); }
};

// Checks what every engine requires of an input pair; throws InputError with both sizes.
void require_matching_pair(const ImageU8& left, const ImageU8& right);

// Throws InputError unless request.views is empty or the colour views of a 16-bit or float pair
// the request rectifies, of its size and in its memory.
void require_views_fit(const FrameRequest& request);

}  // namespace sv
