#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "src/app/host_stream_timing.h"
#include "src/core/stereo_params.h"

namespace sv {

// What a bench row times: the engine's stages as today (device to device from the stage sum,
// transfers apart); a stream of 8-bit pairs from host memory to the fixed-point disparity back in
// host memory, as a camera loop sees it (--host-to-host); or the public device-memory call on a
// caller's stream, timed with CUDA events around each call (--device, the CUDA engine).
enum class BenchMode { Stages, HostToHost, Device, ViewerLoop };

struct BenchOptions {
  std::vector<std::string> algorithms{"census-sgm"};
  std::vector<std::pair<int, int>> sizes{{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}};
  std::vector<int> disparity_counts{64, 128, 256};
  int warmup = 5;
  int runs = 50;
  std::string engine = "auto";
  StereoParams params;  // every other parameter (paths, subpixel, LR check, ...)
  bool json = false;
  BenchMode mode = BenchMode::Stages;
  // --host-to-host --staged-input: the pairs in ordinary host memory, copied by the engine into
  // its staging every frame, instead of in blocks of the engine's own host memory (as a camera
  // source gives them).
  bool staged_input = false;
  // --host-to-host --rectify: raw colour pairs that the engine rectifies (maps of a mildly
  // distorted camera pair), the rectified views returned with the disparity, as a calibrated
  // colour camera's frames reach the frame loops.
  bool rectify = false;
};

// `stereoview bench`: every algorithm x size x disparity count on the synthetic scene; after
// `warmup` frames, `runs` timed frames; prints the median and the 10th-90th percentile spread of
// each stage and of the device-to-device total (upload and download excluded), frames per
// second and GDE/s (width x height x disparities / time, in 1e9 per second). Returns the exit code.
int run_bench_command(const BenchOptions& options, std::ostream& out, std::ostream& err);

// One line of the text table (algorithm, size, D, total ms, fps, GDE/s, stages): each column
// padded to its width and followed by at least one space, however wide its value.
std::string bench_table_line(const std::vector<std::string>& cells);

// The two lines under a --host-to-host row that say where its time goes. Streamed: a frame's time
// (means over the stream) is its stages plus the time between them, beside the device call's
// (medians); more stage time than the
// call's is the frames slowing each other on the device (contention), more time between them is
// the device waiting for its next frame (bubbles); then the upload and download. Alone: the
// latency is the device's span (upload, stages, result copy, download, gaps) plus the host's time
// around it, of which submit() and collect() after its wait.
std::string host_stream_breakdown(const HostStreamTimes& times, const DeviceCallTimes& call);

}  // namespace sv
