#include "src/app/headless_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <vector>

#include "src/app/engine_factory.h"
#include "src/app/frame_pipeline_queue.h"
#include "src/app/image_loading.h"
#include "src/app/pair_matching.h"
#include "src/app/playback_pacer.h"
#include "src/app/progress_reporter.h"
#include "src/app/source_factory.h"
#include "src/app/stop_signals.h"
#include "src/core/block_pool.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/evaluation.h"
#include "src/core/frame_budget.h"
#include "src/core/high_bit_depth.h"
#include "src/core/image_formats.h"
#include "src/core/output_folders.h"
#include "src/core/remap_handoff.h"
#include "src/core/synthetic_scene.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/dataset_source.h"
#endif
#ifdef STEREOVIEW_HAS_RECORDING
#include "src/app/recording_setup.h"
#endif

namespace sv {
namespace {

// What a frame's outputs need besides its pair and its result, kept while it is in flight: its
// place in the run (its "frame N" line and its file names) and its ground truth, when the source
// knows it.
struct FrameExtra {
  int64_t number = 0;
  ImageF32 ground_truth;
  EvaluationMasks masks;
};
using InFlightFrames = FramePipelineQueue<FrameExtra>;

// A dataset's pairs come with ground truth: evaluate them like the synthetic scene.
void add_dataset_ground_truth(const FrameSource& source, const StereoPair& pair,
                              FrameExtra& extra) {
#ifdef STEREOVIEW_HAS_OPENCV
  const auto* dataset = dynamic_cast<const DatasetSource*>(&source);
  if (!dataset) return;
  const StereoSample& sample = dataset->sample(pair.index);
  if (!sample.ground_truth.same_size(pair.left)) return;
  extra.ground_truth = sample.ground_truth;
  extra.masks = sample.masks;
#else
  (void)source;
  (void)pair;
  (void)extra;
#endif
}

std::string frame_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "disparity_%06d", index);
  return name;
}

#ifdef STEREOVIEW_HAS_RECORDING
// The recording of a headless run: made (and so checked) before any frame is computed; the
// geometry is added at the first frame, when the size is known.
class HeadlessRecording {
 public:
  HeadlessRecording(const CliOptions& options, Colormap colormap, std::string source,
                    std::string engine, double frames_per_second, std::ostream& err)
      : options_(options), err_(err) {
    RecordingRequest request;
    request.path = options.record_path;
    request.format = options.record_format;
    request.codec = options.record_codec;
    request.frames_per_second = frames_per_second;
    request.colormap = colormap;
    request.params = options.params;
    request.source = std::move(source);
    request.engine = std::move(engine);
    request.calibration_file = options.calib_path;
    const RecorderSettings settings = make_recorder_settings(request);
    format_ = settings.encoder.format;
    recorder_ = std::make_unique<Recorder>(
        settings, [&err](const std::string& m) { err << "note: " << m << "\n"; });
  }

  // False when the recording has stopped (its error comes with finish()).
  bool add(StereoPair& pair, const DisparityResult& result) {
    if (frames_added_++ == 0) {
      recorder_->set_geometry(stereo_geometry_for(
          options_, pair.left.width(), pair.left.height(),
          [this](const std::string& m) { err_ << "warning: " << m << "\n"; }));
    }
    RecordingFrame record;
    record.index = pair.index;
    record.timestamp_s = pair.timestamp_s;
    if (format_ == RecordingFormat::Raw || format_ == RecordingFormat::SideBySide) {
      record.left = std::move(pair.left);
      record.right = std::move(pair.right);
      if (format_ == RecordingFormat::Raw) {  // the raw format records the input's full depth
        record.left16 = std::move(pair.left16);
        record.right16 = std::move(pair.right16);
        record.leftf = std::move(pair.leftf);
        record.rightf = std::move(pair.rightf);
      }
    }
    if (format_ != RecordingFormat::Lossless16 && format_ != RecordingFormat::Raw) {
      record.disparity = result.disparity;
    }
    if (format_ == RecordingFormat::Lossless16) record.disparity_fixed = result.disparity_fixed;
    // A file run must lose no frame: wait for the disk rather than drop.
    return recorder_->submit_waiting(std::move(record));
  }

  // Ends the recording, saying `why` in its sidecar; reports it on `out`, or its own error on
  // `err` (returns false then). The frame count is that of the frames in the file.
  bool finish(std::ostream& out, std::ostream& err, const RecordingStop& why) {
    if (finished_) return true;
    finished_ = true;
    const RecorderStatus status = recorder_->stop(why);
    const std::string sidecar = status.sidecar_written ? ", sidecar " + status.sidecar_path : "";
    if (status.error.empty() && !status.sidecar_written) {
      out << "nothing recorded: no frame reached " << status.path << "\n";
      return true;
    }
    if (!status.error.empty()) {
      err << "error: " << status.error << "\n";
      if (status.frames_written > 0) {
        out << "kept " << status.frames_written << " frame"
            << (status.frames_written == 1 ? "" : "s") << " in " << status.path << sidecar << "\n";
      }
      return false;
    }
    out << "recorded " << status.frames_written << " frame"
        << (status.frames_written == 1 ? "" : "s") << " to " << status.path << " ("
        << status.description << ", " << format_byte_count(status.bytes_written) << ")" << sidecar;
    if (!why.clean() || why.reason == RecordingStop::Reason::Interrupted) out << ": " << why.text();
    out << "\n";
    return true;
  }

 private:
  const CliOptions& options_;
  std::ostream& err_;
  RecordingFormat format_;
  std::unique_ptr<Recorder> recorder_;
  int64_t frames_added_ = 0;
  bool finished_ = false;
};
#endif

}  // namespace

// Live sources may fail now and then (a camera reconnecting); this many failures in a row end the run.
constexpr int kMaxLiveFailuresInARow = 3;
// Frames the engine fails on (not bad input: a device lost, say) end the run after this many in
// a row; fewer leave room for an engine that recovers (auto's fallback to the CPU engine).
constexpr int kMaxEngineFailuresInARow = 3;

int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err) {
  return run_headless(options, out, err, make_engine);
}

int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err,
                 const EngineFactory& make) {
#ifdef STEREOVIEW_HAS_RECORDING
  std::unique_ptr<HeadlessRecording> recorder;  // outside the try: an error still finishes it
#endif
  [[maybe_unused]] bool reading_source = false;  // an error now is the source's (for the recording)
  try {
    const Colormap colormap = parse_colormap(options.colormap);
    if (!options.out_dir.empty()) create_output_folder(options.out_dir, "--out");
    std::unique_ptr<StereoEngine> engine = make(options.engine, err);
    if (!engine) throw RuntimeError("no engine could be made for \"" + options.engine + "\"");

    // The synthetic scene is rendered here rather than through its FrameSource, because the
    // runner also wants each frame's ground truth.
    const bool synthetic = options.source == "synthetic";
    if (synthetic && !options.calib_path.empty()) {
      throw InputError("--calib applies to cameras and files; the synthetic scene is rectified");
    }
    // Only for the synthetic source: its disparities must fit the search range, which other
    // sources' ranges (negative ones for converging cameras) need not.
    std::optional<SyntheticScene> scene;
    if (synthetic) {
      SyntheticSceneConfig scene_config;
      scene_config.width = options.width;
      scene_config.height = options.height;
      scene_config.seed = options.seed;
      scene_config.max_disparity = options.params.min_disparity + options.params.num_disparities;
      scene.emplace(scene_config);
    }

    const NoticeSink notices = [&err](const std::string& message) {
      err << "note: " << message << "\n";
    };
    std::unique_ptr<FrameSource> source;
    if (!synthetic) source = make_frame_source(options, notices);
    // The pairs are read into blocks of the engine's own host memory (pinned for the CUDA
    // engine), which it uploads from as they are: no host copy of a pair on its way in.
    const auto pair_pool = std::make_shared<BlockPool>(engine->host_memory(), kPairPoolBlocks);
    if (source) source->use_pair_memory(pair_pool);

    // Each new frame size is checked before it is matched; the scene's size is known now.
    FrameBudget budget;
    const auto check_budget = [&](int width, int height) {
      const std::string slow = budget.check(*engine, width, height, options.params);
      if (!slow.empty()) err << "note: " << slow << "\n";
    };
    if (synthetic) check_budget(options.width, options.height);

    out << "stereoview: " << (synthetic ? "synthetic scene " + std::to_string(options.width) + "x" +
                                              std::to_string(options.height)
                                        : source->describe())
        << ", algorithm " << options.params.algorithm << ", engine " << engine->name() << "\n";
    if (!options.out_dir.empty()) out << "writing disparities to " << options.out_dir << "/\n";

    // A file is processed to its end unless --frames says otherwise; endless sources (the
    // synthetic scene, cameras) stop after --frames (default 1).
    const bool whole_file = !synthetic && !source->is_live() && !options.frames_given;
    const int64_t limit = whole_file ? std::numeric_limits<int64_t>::max() : options.frames;
    PlaybackPacer pacer(!options.realtime ? 0.0 : synthetic ? 30.0 : source->frames_per_second());
    if (options.realtime && !synthetic && source->frames_per_second() <= 0) {
      err << "note: the source gives no frame rate; --realtime plays it as fast as possible\n";
    }

    // --record: the frames also go to a recording; per-frame lines give way to a progress bar.
    const bool recording = !options.record_path.empty();
    DisparityResult result;
    ResultParts wanted;
    wanted.confidence = false;
    wanted.fixed = options.record_format == "lossless16";
#ifdef STEREOVIEW_HAS_RECORDING
    if (recording) {
      const double fps = synthetic || source->frames_per_second() <= 0 ? 30.0 : source->frames_per_second();
      recorder = std::make_unique<HeadlessRecording>(
          options, colormap, synthetic ? "synthetic " + std::to_string(options.width) + "x" +
                                             std::to_string(options.height)
                                       : source->describe(),
          engine->name(), fps, err);
      out << "recording " << options.record_format << " to " << options.record_path << "\n";
    }
#else
    if (recording) {
      throw RuntimeError("--record: this build has no recording (configure with FFmpeg's "
                         "libav*-dev and nlohmann-json3-dev installed)");
    }
#endif
    int64_t total = limit == std::numeric_limits<int64_t>::max() ? -1 : limit;
    if (!synthetic && source->frame_count() > 0 && !options.loop) {
      total = total < 0 ? source->frame_count() : std::min(total, source->frame_count());
    }
    ProgressReporter progress(out, &out == &std::cout && stdout_is_terminal(), total);
    bool recording_failed = false;

    const float range_min = static_cast<float>(options.params.min_disparity);
    const float range_max = range_min + options.params.num_disparities - 1;
    int64_t read = 0;    // pairs taken from the source, failed frames included
    int64_t done = 0;    // frames computed and written
    int64_t failed = 0;  // frames reported as failed
    int engine_failures_in_a_row = 0;
    [[maybe_unused]] bool source_ended = false;  // why a recording stopped
    std::exception_ptr source_error;  // raised once the frames in flight are written
    int live_failures = 0;
    bool depth_noted = false;  // 16-bit input: say once whether its full depth is matched
    std::optional<bool> engine_remaps;  // a rectifying source: where its remap runs, once said
    std::vector<double> host_ms;        // per frame written (FramePipelineQueue::Collected)
    std::vector<double> copy_ms;        // the part of each the engine spent copying images
    bool device_frames = false;         // the engine has a device: host time is outside the GPU
    InFlightFrames in_flight(*engine);

    // The outputs of the oldest frame in flight, in frame order: its line (with its evaluation),
    // its recording, its files; or its error, after which the run goes on.
    const auto write_oldest = [&] {
      InFlightFrames::Collected frame = in_flight.collect(result);
      const int64_t number = frame.extra.number;
      if (frame.error) {
        ++failed;
        try {
          std::rethrow_exception(frame.error);
        } catch (const InputError& e) {
          err << "error: frame " << number << ": " << e.what() << "\n";
        } catch (const std::exception& e) {
          err << "error: frame " << number << ": " << e.what() << "\n";
          ++engine_failures_in_a_row;
        }
        return;
      }
      engine_failures_in_a_row = 0;
      host_ms.push_back(frame.host_ms);
      copy_ms.push_back(result.timings.host_copy_ms);
      if (result.timings.device_span_ms > 0.0) device_frames = true;
      if (frame.pair.remap && engine_remaps != frame.pair.remap->engine_remaps()) {
        engine_remaps = frame.pair.remap->engine_remaps();
        out << (*engine_remaps ? "rectifying on the GPU (" + engine->name() + " engine)\n"
                               : std::string("rectifying on the host\n"));
      }
      if (!recording) {
        out << "frame " << number << ": " << std::fixed << std::setprecision(1)
            << result.timings.total_ms() << " ms";
        if (!frame.extra.ground_truth.empty()) {
          const DisparityEvaluation eval =
              evaluate_disparity(result.disparity, frame.extra.ground_truth, frame.extra.masks);
          // nonocc where the data has occlusion masks, else every pixel with ground truth.
          const RegionErrors* region = eval.find("nonocc");
          if (!region) region = eval.find("all");
          if (region) {
            out << ", bad-1 " << region->region << " " << std::setprecision(2) << region->bad_1
                << "%, density " << eval.density << "%";
          }
        }
        out << "\n";
      }
#ifdef STEREOVIEW_HAS_RECORDING
      if (recorder && !recorder->add(frame.pair, result)) {
        recording_failed = true;  // the recorder holds the reason; finish() prints it
        return;
      }
#endif
      if (!options.out_dir.empty()) {
        const std::string base = options.out_dir + "/" + frame_name(static_cast<int>(number));
        write_pfm(base + ".pfm", result.disparity);
        save_color_image(base, colorize_disparity(result.disparity, range_min, range_max, colormap));
      }
      ++done;
      if (recording) progress.update(done);
    };

    while (read < limit && stop_signal() == 0 && !recording_failed &&
           engine_failures_in_a_row < kMaxEngineFailuresInARow) {
      StereoPair pair;
      FrameExtra extra;
      extra.number = read;
      if (synthetic) {
        SyntheticFrame rendered = scene->render(static_cast<int>(read), pair_pool.get());
        pair.index = read;
        pair.timestamp_s = rendered.timestamp_s;
        pair.left = std::move(rendered.left);
        pair.right = std::move(rendered.right);
        extra.ground_truth = std::move(rendered.ground_truth);
        extra.masks.nonocc = std::move(rendered.nonoccluded_mask);
        extra.masks.disc = std::move(rendered.discontinuity_mask);
      } else {
        std::optional<StereoPair> next;
        try {
          next = source->next();
          live_failures = 0;
        } catch (const RuntimeError& e) {
          if (!source->is_live() || ++live_failures >= kMaxLiveFailuresInARow) {
            source_error = std::current_exception();
            break;
          }
          err << "note: " << e.what() << "\n";
          continue;
        } catch (...) {  // a file's bad pair: the source cannot go past it
          source_error = std::current_exception();
          break;
        }
        if (!next) {
          source_ended = true;
          break;
        }
        pair = std::move(*next);
        add_dataset_ground_truth(*source, pair, extra);
      }
      ++read;
      std::exception_ptr refused;  // a pair the engines would refuse, or a size that cannot fit
      try {
        if (pair.left.empty() || !pair.left.same_size(pair.right)) {
          // The engines' message for a bad pair; the gray images are made only here.
          require_matching_pair(to_gray(pair.left), to_gray(pair.right));
        }
        check_budget(pair.left.width(), pair.left.height());
      } catch (const InputError&) {
        refused = std::current_exception();
      }
      if (refused) {
        in_flight.add_failed(std::move(pair), std::move(extra), refused);
      } else {
        pacer.wait();
        if ((!pair.left16.empty() || !pair.leftf.empty()) && !depth_noted) {
          const bool is_float = !pair.leftf.empty();
          const std::string note = is_float ? float_input_fallback_note(*engine, options.params)
                                            : high_bit_depth_fallback_note(*engine, options.params);
          if (note.empty()) {
            out << (is_float ? "matching the float values\n" : "matching the 16-bit values\n");
          } else {
            err << "note: " << note << "\n";
          }
          depth_noted = true;
        }
        // Rectified where it is cheapest, as in the viewer's ProcessingThread: by the CUDA engine
        // on the GPU, on the host for the CPU engine. The request asks only for what the outputs
        // read (the recorder's lossless format the fixed point), into one reused result.
        in_flight.submit(std::move(pair), std::move(extra), options.params, wanted);
      }
      // The next pair was submitted before this frame is collected: the engine stays busy.
      if (in_flight.full()) write_oldest();
    }
    // Ctrl-C, --frames, the end of the source or its failure: the frames in flight are written.
    while (!in_flight.empty() && !recording_failed) write_oldest();
    if (recording) progress.finish(done);
    if (source_error) {
      reading_source = true;
      std::rethrow_exception(source_error);
    }
    if (engine_failures_in_a_row >= kMaxEngineFailuresInARow) {
      throw RuntimeError("stopped: the engine failed on " + std::to_string(engine_failures_in_a_row) +
                         " frames in a row");
    }
    const int signal = stop_signal();
#ifdef STEREOVIEW_HAS_RECORDING
    if (recorder) {
      using Reason = RecordingStop::Reason;
      const RecordingStop why{signal != 0    ? Reason::Interrupted
                              : source_ended ? Reason::EndOfSource
                                             : Reason::FrameLimit,
                              signal, ""};
      if (!recorder->finish(out, err, why)) recording_failed = true;
    }
#endif
    if (signal != 0) {
      err << "interrupted by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << " after " << done
          << " frame" << (done == 1 ? "" : "s") << "\n";
      return exit_code_for_signal(signal);
    }
    if (recording_failed) return 1;
    if (read == 0) throw InputError("the source delivered no frame");
    if (!host_ms.empty()) {
      // The loop's own time per frame, what collect() waited for the engine left out: see
      // FramePipelineQueue::Collected::host_ms.
      std::sort(host_ms.begin(), host_ms.end());
      std::sort(copy_ms.begin(), copy_ms.end());
      out << "host time per frame outside the " << (device_frames ? "GPU" : "engine") << ": median "
          << std::fixed << std::setprecision(2) << host_ms[host_ms.size() / 2] << " ms, max "
          << host_ms.back() << " ms; of it, copying images in memory: median "
          << copy_ms[copy_ms.size() / 2] << " ms\n";
    }
    out << "done: " << done << " frame" << (done == 1 ? "" : "s");
    if (failed > 0) out << ", " << failed << " failed";
    out << "\n";
    return failed > 0 ? 1 : 0;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
#ifdef STEREOVIEW_HAS_RECORDING
    // The sidecar says why the run ended.
    if (recorder) {
      recorder->finish(out, err,
                       {reading_source ? RecordingStop::Reason::SourceError
                                       : RecordingStop::Reason::ProcessingError,
                        0, e.what()});
    }
#endif
    return 1;
  }
}

}  // namespace sv
