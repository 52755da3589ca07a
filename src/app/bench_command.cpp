#include "src/app/bench_command.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>

#include "src/app/engine_factory.h"
#include "src/app/host_stream_timing.h"
#include "src/app/viewer_loop_timing.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/frame_budget.h"
#include "src/core/remap.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/device_call_timing.h"
#endif

namespace sv {
namespace {

struct Spread {
  double median = 0, p10 = 0, p90 = 0;
};

Spread spread_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto at = [&](double q) { return values[static_cast<size_t>(q * (values.size() - 1) + 0.5)]; };
  return {at(0.5), at(0.1), at(0.9)};
}


struct BenchRow {
  std::string algorithm;
  int width = 0, height = 0, disparities = 0;
  Spread device_ms;  // device-to-device total
  Spread frame_ms;   // with transfers
  std::vector<std::pair<std::string, Spread>> stages;
  double fps() const { return 1000.0 / device_ms.median; }
  double gdes() const {
    return static_cast<double>(width) * height * disparities / (device_ms.median * 1e-3) / 1e9;
  }
};

std::string fmt(double v, int precision = 3) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << v;
  return s.str();
}

// The text table's column widths; the last column (the stages) runs to the end of the line.
constexpr size_t kBenchColumnWidths[] = {12, 11, 6, 26, 9, 9};

void print_json(const std::vector<BenchRow>& rows, const std::string& engine, std::ostream& out) {
  out << "{\"engine\": \"" << engine << "\", \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchRow& r = rows[i];
    out << (i ? ", " : "") << "{\"algorithm\": \"" << r.algorithm << "\", \"width\": " << r.width
        << ", \"height\": " << r.height << ", \"disparities\": " << r.disparities
        << ", \"device_ms\": {\"median\": " << fmt(r.device_ms.median, 4)
        << ", \"p10\": " << fmt(r.device_ms.p10, 4) << ", \"p90\": " << fmt(r.device_ms.p90, 4)
        << "}, \"frame_ms_median\": " << fmt(r.frame_ms.median, 4) << ", \"fps\": " << fmt(r.fps(), 1)
        << ", \"gde_per_s\": " << fmt(r.gdes(), 2) << ", \"stages\": {";
    for (size_t s = 0; s < r.stages.size(); ++s) {
      out << (s ? ", " : "") << "\"" << r.stages[s].first << "\": " << fmt(r.stages[s].second.median, 4);
    }
    out << "}}";
  }
  out << "]}\n";
}

// A row's parameters: the options' with its algorithm and disparity count, validated.
StereoParams row_params(const BenchOptions& options, const std::string& algorithm, int disparities) {
  StereoParams params = options.params;
  params.algorithm = algorithm;
  params.num_disparities = disparities;
  require_valid(params);
  return params;
}

// The columns of --host-to-host and --device rows.
constexpr size_t kStreamColumnWidths[] = {12, 11, 6, 11, 10, 11, 11, 10};

std::string stream_table_line(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 == cells.size()) break;
    const size_t width = i < std::size(kStreamColumnWidths) ? kStreamColumnWidths[i] : 0;
    line += std::string(cells[i].size() < width ? width - cells[i].size() : 1, ' ');
  }
  return line + "\n";
}

#ifdef STEREOVIEW_HAS_CUDA
// The CUDA engine itself (--engine cuda), or null: bench --device and a --host-to-host row's
// device call need its public device call.
cuda::CudaEngine* as_cuda_engine(StereoEngine& engine) { return dynamic_cast<cuda::CudaEngine*>(&engine); }
#endif

// A --host-to-host row's device call; empty for an engine without it (host engines, --engine
// auto).
DeviceCallTimes time_device_call_beside(StereoEngine& engine, const BenchOptions& options,
                                          const StereoParams& params, const ImageU8& left,
                                          const ImageU8& right) {
  DeviceCallTimes figures;
#ifdef STEREOVIEW_HAS_CUDA
  if (cuda::CudaEngine* cuda_engine = as_cuda_engine(engine)) {
    std::vector<StageTimings> each_call;
    figures.call_ms = cuda::time_device_calls(*cuda_engine, left, right, params, options.warmup,
                                              options.runs, nullptr, &each_call);
    for (const StageTimings& t : each_call) figures.stages_ms.push_back(stages_without_transfers_ms(t));
  }
#else
  (void)engine; (void)options; (void)params; (void)left; (void)right;
#endif
  return figures;
}

// A difference, with its sign either way.
std::string signed_fmt(double v, int precision = 3) { return (v < 0 ? "" : "+") + fmt(v, precision); }

double median_of(const std::vector<double>& values) {
  return values.empty() ? 0.0 : spread_of(values).median;
}

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

// "name 1.234", or nothing when the engine has no such figure.
std::string figure(const std::string& name, const std::vector<double>& values) {
  return values.empty() ? "" : name + " " + fmt(median_of(values));
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    text += (text.empty() ? "" : separator) + part;
  }
  return text;
}

// Which input a --host-to-host run's figures used.
std::string host_stream_input_line(const StereoEngine& engine, const BenchOptions& options) {
  const std::string raw = options.rectify ? ", the RAW colour pair of a calibrated camera "
                                            "(--rectify: the engine rectifies it and returns the "
                                            "rectified views with the disparity)"
                                          : "";
  if (options.staged_input) {
    return "input: ordinary host images (--staged-input), copied by the engine into its upload "
           "staging every frame" + raw;
  }
  return std::string("input: the pair in two blocks of the engine's own host memory (") +
         engine.host_memory()->name() + "), written once and submitted every frame, as a camera "
         "source gives it (--staged-input: ordinary host images instead)" + raw;
}

// --rectify's maps: each view of a camera pair with a mild radial distortion and a fraction of
// a pixel's offset, so that every pixel is interpolated and fetched from nearby rows, as through
// a real calibration's maps.
std::shared_ptr<const RectificationMaps> camera_like_maps(int width, int height) {
  auto maps = std::make_shared<RectificationMaps>();
  const float cx = 0.5f * (width - 1), cy = 0.5f * (height - 1);
  const float scale = 1.0f / (static_cast<float>(width) * width + static_cast<float>(height) * height);
  const auto fill = [&](ImageF32& map_x, ImageF32& map_y, float k, float dx, float dy) {
    map_x = ImageF32(width, height);
    map_y = ImageF32(width, height);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const float u = x - cx, v = y - cy;
        const float bend = 1.0f + k * (u * u + v * v) * scale;
        map_x.at(x, y) = cx + u * bend + dx;
        map_y.at(x, y) = cy + v * bend + dy;
      }
    }
  };
  fill(maps->left_x, maps->left_y, -0.04f, 0.37f, -0.21f);
  fill(maps->right_x, maps->right_y, -0.03f, -0.41f, 0.13f);
  return maps;
}

// --host-to-host: one row of the stream table, and where its time goes.
void bench_host_stream(StereoEngine& engine, const BenchOptions& options, const std::string& algorithm,
                       const SyntheticFrame& frame, const ImageU8& left, const ImageU8& right,
                       int disparities, std::ostream& out) {
  const StereoParams params = row_params(options, algorithm, disparities);
  const StreamInput input = options.staged_input ? StreamInput::Staged : StreamInput::EngineMemory;
  const HostStreamTimes t =
      options.rectify
          ? time_host_stream(engine, frame.left, frame.right,
                             camera_like_maps(left.width(), left.height()), params, input,
                             options.warmup, options.runs)
          : time_host_stream(engine, left, right, params, input, options.warmup, options.runs);
  const DeviceCallTimes call = time_device_call_beside(engine, options, params, left, right);
  const double device = median_of(t.device_ms);
  const double per_frame = 1000.0 / t.frames_per_second;
  const std::string size = std::to_string(left.width()) + "x" + std::to_string(left.height());
  if (options.json) {
    const auto json_figure = [](const std::vector<double>& values) {
      return values.empty() ? std::string("null") : fmt(median_of(values), 4);
    };
    out << "{\"mode\": \"host-to-host\", \"engine\": \"" << engine.name() << "\", \"input\": \""
        << (options.staged_input ? "staged" : "engine-memory")
        << "\", \"rectify\": " << (options.rectify ? "true" : "false") << ", \"algorithm\": \""
        << algorithm << "\", \"width\": " << left.width() << ", \"height\": " << left.height()
        << ", \"disparities\": " << disparities << ", \"device_ms\": " << fmt(device, 4)
        << ", \"fps\": " << fmt(t.frames_per_second, 1) << ", \"ms_per_frame\": " << fmt(per_frame, 4)
        << ", \"latency_ms\": " << json_figure(t.latency_ms)
        << ", \"host_ms\": " << json_figure(t.host_ms)
        << ", \"stream_stages_ms\": " << json_figure(t.stream_stages_ms)
        << ", \"stream_upload_ms\": " << json_figure(t.stream_upload_ms)
        << ", \"stream_download_ms\": " << json_figure(t.stream_download_ms)
        << ", \"upload_ms\": " << json_figure(t.upload_ms)
        << ", \"results_ms\": " << json_figure(t.results_ms)
        << ", \"download_ms\": " << json_figure(t.download_ms)
        << ", \"span_gaps_ms\": " << json_figure(t.span_gaps_ms)
        << ", \"submit_ms\": " << json_figure(t.submit_ms)
        << ", \"after_wait_ms\": " << json_figure(t.after_wait_ms)
        << ", \"device_call_ms\": " << json_figure(call.call_ms)
        << ", \"device_call_stages_ms\": " << json_figure(call.stages_ms) << "}\n";
    return;
  }
  out << stream_table_line({algorithm, size, std::to_string(disparities), fmt(device),
                            fmt(t.frames_per_second, 1), fmt(per_frame), fmt(median_of(t.latency_ms)),
                            fmt(median_of(t.host_ms))})
      << host_stream_breakdown(t, call) << std::flush;
}

// --viewer-loop: one row of the viewer's processing thread on colour pairs, as the viewer runs it
// (the device results kept for CUDA-GL interop when the engine is the CUDA engine).
void bench_viewer_loop(const BenchOptions& options, const std::string& engine_name,
                       const std::string& algorithm, const SyntheticFrame& frame, int disparities,
                       std::ostream& out) {
  const StereoParams params = row_params(options, algorithm, disparities);
  StereoPair pair;
  pair.left = frame.left;
  pair.right = frame.right;
  const ViewerLoopTimes t = time_viewer_loop(make_engine, options.engine, pair, params,
                                             engine_name == "cuda", options.warmup, options.runs);
  const Spread host = spread_of(t.host_ms);
  const Spread copies = spread_of(t.copy_ms);
  const std::string size = std::to_string(frame.left.width()) + "x" + std::to_string(frame.left.height());
  if (options.json) {
    out << "{\"mode\": \"viewer-loop\", \"engine\": \"" << engine_name << "\", \"algorithm\": \""
        << algorithm << "\", \"width\": " << frame.left.width()
        << ", \"height\": " << frame.left.height() << ", \"disparities\": " << disparities
        << ", \"fps\": " << fmt(t.frames_per_second, 1)
        << ", \"host_ms\": {\"median\": " << fmt(host.median, 4)
        << ", \"p90\": " << fmt(host.p90, 4)
        << "}, \"copy_ms\": {\"median\": " << fmt(copies.median, 4) << "}}\n";
    return;
  }
  out << stream_table_line({algorithm, size, std::to_string(disparities),
                            fmt(t.frames_per_second, 1), fmt(1000.0 / t.frames_per_second),
                            fmt(host.median), fmt(host.p90), fmt(copies.median)})
      << std::flush;
}

// --device: one row through the public device call (the CUDA engine only).
void bench_device_calls(StereoEngine& any_engine, const BenchOptions& options,
                        const std::string& algorithm, const ImageU8& left, const ImageU8& right,
                        int disparities, std::ostream& out) {
#ifdef STEREOVIEW_HAS_CUDA
  cuda::CudaEngine* engine = as_cuda_engine(any_engine);
  if (engine == nullptr) throw RuntimeError("bench --device needs the CUDA engine (--engine cuda)");
  const StereoParams params = row_params(options, algorithm, disparities);
  StageTimings stages;
  const Spread t = spread_of(cuda::time_device_calls(*engine, left, right, params, options.warmup,
                                                     options.runs, &stages));
  const std::string size = std::to_string(left.width()) + "x" + std::to_string(left.height());
  if (options.json) {
    out << "{\"mode\": \"device\", \"algorithm\": \"" << algorithm << "\", \"width\": " << left.width()
        << ", \"height\": " << left.height() << ", \"disparities\": " << disparities
        << ", \"device_ms\": {\"median\": " << fmt(t.median, 4) << ", \"p10\": " << fmt(t.p10, 4)
        << ", \"p90\": " << fmt(t.p90, 4) << "}}\n";
    return;
  }
  std::ostringstream stage_text;
  for (const auto& s : stages.stages) stage_text << s.stage << " " << fmt(s.milliseconds) << "  ";
  out << bench_table_line({algorithm, size, std::to_string(disparities),
                           fmt(t.median) + " [" + fmt(t.p10) + "-" + fmt(t.p90) + "]",
                           fmt(1000.0 / t.median, 1),
                           fmt(static_cast<double>(left.size()) * disparities / (t.median * 1e-3) / 1e9, 2),
                           stage_text.str()})
      << std::flush;
#else
  (void)any_engine; (void)options; (void)algorithm; (void)left; (void)right; (void)disparities; (void)out;
  throw RuntimeError("bench --device: this build has no CUDA engine");
#endif
}

}  // namespace

std::string bench_table_line(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 == cells.size()) break;
    const size_t width = i < std::size(kBenchColumnWidths) ? kBenchColumnWidths[i] : 0;
    // A value wider than its column still ends in a space, so it never runs into the next one.
    line += std::string(cells[i].size() < width ? width - cells[i].size() : 1, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

std::string host_stream_breakdown(const HostStreamTimes& t, const DeviceCallTimes& call) {
  const bool has_device = !t.span_gaps_ms.empty();
  // The stream's time a frame is a mean (its time over its frames), so its stages are one too:
  // then the rest is the mean time a frame's stages left the engine idle.
  const double per_frame = 1000.0 / t.frames_per_second;
  const double stream_stages = mean_of(t.stream_stages_ms);
  std::string streamed = "  streamed (means): " + fmt(per_frame) + " ms a frame = stages " +
                         fmt(stream_stages) + " + between them " + fmt(per_frame - stream_stages);
  if (!call.call_ms.empty()) {
    std::vector<double> call_between;
    for (size_t i = 0; i < call.call_ms.size() && i < call.stages_ms.size(); ++i) {
      call_between.push_back(call.call_ms[i] - call.stages_ms[i]);
    }
    const double call_ms = median_of(call.call_ms);
    streamed += "; device call (medians) " + fmt(call_ms) + " = stages " +
                fmt(median_of(call.stages_ms)) + " + between them " + fmt(median_of(call_between)) +
                "; stream over call " + signed_fmt(100.0 * (per_frame / call_ms - 1.0), 1) + " %";
  } else if (has_device) {
    streamed += "; no device call (--engine cuda times it)";
  }
  const std::string transfers =
      joined({figure("upload", t.stream_upload_ms), figure("download", t.stream_download_ms)}, ", ");
  if (!transfers.empty()) streamed += "; " + transfers;

  std::string alone = "  alone: latency " + fmt(median_of(t.latency_ms)) + " ms";
  if (has_device) {
    alone += " = device span (" +
             joined({figure("upload", t.upload_ms), figure("stages", t.device_ms),
                     figure("results", t.results_ms), figure("download", t.download_ms),
                     figure("gaps", t.span_gaps_ms)},
                    ", ") +
             ") + host " + fmt(median_of(t.host_ms));
  }
  alone += "; host: submit " + fmt(median_of(t.submit_ms)) + ", collect after its wait " +
           fmt(median_of(t.after_wait_ms));
  if (!call.call_ms.empty()) {
    alone += "; latency over call " + signed_fmt(median_of(t.latency_ms) - median_of(call.call_ms)) +
             " ms";
  }
  return streamed + "\n" + alone + "\n";
}

int run_bench_command(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  try {
    // --device times the CUDA engine's own device call, so it takes that engine alone.
    std::unique_ptr<StereoEngine> engine =
        make_engine(options.mode == BenchMode::Device ? "cuda" : options.engine, err);
    std::vector<BenchRow> rows;
    // Every row is checked before the first runs: one that cannot fit ends the bench before
    // any time is spent, and slow rows are announced up front.
    FrameBudget budget;
    for (const auto& [width, height] : options.sizes) {
      for (const std::string& algorithm : options.algorithms) {
        for (int disparities : options.disparity_counts) {
          const StereoParams params = row_params(options, algorithm, disparities);
          const std::string slow = budget.check(*engine, width, height, params);
          if (!slow.empty()) {
            err << "note: " << slow << ", " << options.warmup + options.runs << " times for this row\n";
          }
        }
      }
    }
    if (options.mode == BenchMode::HostToHost && !options.json) {
      out << "bench --host-to-host: engine " << engine->name() << ", "
          << (options.rectify ? "raw colour pairs" : "8-bit pairs") << " from host memory "
          << "to the fixed-point disparity in host memory; " << options.warmup << " warm-up, then "
          << options.runs << " frames streamed (two in flight) and " << options.runs
          << " alone; ms are medians\n"
          << host_stream_input_line(*engine, options) << "\n\n"
          << stream_table_line({"algorithm", "size", "D", "device ms", "fps", "ms/frame",
                                "latency ms", "host ms"});
    } else if (options.mode == BenchMode::ViewerLoop && !options.json) {
      out << "bench --viewer-loop: engine " << engine->name() << ", the viewer's processing thread "
          << "on colour pairs with the result parts the viewer asks for"
          << (engine->name() == "cuda" ? " (device results kept for CUDA-GL interop)" : "")
          << ", no window; " << options.warmup << " warm-up + " << options.runs
          << " frames; host ms: the thread's time on a frame outside the engine's work, copy ms: "
          << "the part of it spent copying images in memory, into the engine's staging buffers "
          << "and out of them\n\n"
          << stream_table_line(
                 {"algorithm", "size", "D", "fps", "ms/frame", "host ms", "host p90", "copy ms"});
    } else if (options.mode == BenchMode::Device && !options.json) {
      out << "bench --device: engine " << engine->name() << ", the public device call on a "
          << "pair in device memory, CUDA events on the caller's stream; " << options.warmup
          << " warm-up + " << options.runs << " timed calls; ms are medians [p10-p90]\n\n"
          << bench_table_line({"algorithm", "size", "D", "total ms", "fps", "GDE/s",
                               "stages (last call, ms)"});
    } else if (!options.json) {
      out << "bench: engine " << engine->name() << ", " << options.warmup << " warm-up + "
          << options.runs << " timed frames per row; ms are medians [p10-p90], device to device\n\n"
          << bench_table_line({"algorithm", "size", "D", "total ms", "fps", "GDE/s",
                               "stages (median ms)"});
    }
    for (const auto& [width, height] : options.sizes) {
      SyntheticSceneConfig config;
      config.width = width;
      config.height = height;
      config.max_disparity = 64;
      const SyntheticFrame frame = SyntheticScene(config).render(0);
      const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);
      for (const std::string& algorithm : options.algorithms) {
        for (int disparities : options.disparity_counts) {
          if (options.mode == BenchMode::HostToHost) {
            bench_host_stream(*engine, options, algorithm, frame, left, right, disparities, out);
            continue;
          }
          if (options.mode == BenchMode::ViewerLoop) {
            bench_viewer_loop(options, engine->name(), algorithm, frame, disparities, out);
            continue;
          }
          if (options.mode == BenchMode::Device) {
            bench_device_calls(*engine, options, algorithm, left, right, disparities, out);
            continue;
          }
          const StereoParams params = row_params(options, algorithm, disparities);
          // Colour only where it changes the result, so other rows time no host conversion.
          const bool colour = uses_colour_weights(params);
          const auto compute = [&] {
            return colour ? engine->compute(frame.left, frame.right, params)
                          : engine->compute(left, right, params);
          };
          for (int i = 0; i < options.warmup; ++i) compute();
          std::vector<double> device_totals, frame_totals;
          std::map<std::string, std::vector<double>> per_stage;
          std::vector<std::string> order;
          for (int i = 0; i < options.runs; ++i) {
            const DisparityResult r = compute();
            // A stage may run more than once a frame (census on each image): sum per frame.
            double device = 0;
            std::map<std::string, double> frame_stages;
            for (const auto& s : r.timings.stages) {
              if (!per_stage.count(s.stage) && !frame_stages.count(s.stage)) order.push_back(s.stage);
              frame_stages[s.stage] += s.milliseconds;
              if (!is_transfer_stage(s.stage)) device += s.milliseconds;
            }
            for (const auto& [stage, ms] : frame_stages) per_stage[stage].push_back(ms);
            device_totals.push_back(device);
            frame_totals.push_back(r.timings.total_ms());
          }
          BenchRow row{algorithm, width, height, disparities, spread_of(device_totals),
                       spread_of(frame_totals), {}};
          for (const auto& stage : order) row.stages.emplace_back(stage, spread_of(per_stage[stage]));
          if (!options.json) {
            std::ostringstream size, total, stages;
            size << width << "x" << height;
            total << fmt(row.device_ms.median) << " [" << fmt(row.device_ms.p10) << "-"
                  << fmt(row.device_ms.p90) << "]";
            for (const auto& [name, s] : row.stages) stages << name << " " << fmt(s.median) << "  ";
            out << bench_table_line({algorithm, size.str(), std::to_string(disparities), total.str(),
                                     fmt(row.fps(), 1), fmt(row.gdes(), 2), stages.str()})
                << std::flush;
          }
          rows.push_back(std::move(row));
        }
      }
    }
    if (options.json && options.mode == BenchMode::Stages) print_json(rows, engine->name(), out);
    return 0;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
