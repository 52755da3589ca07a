#include "src/app/bench_command.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "src/app/engine_factory.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/frame_budget.h"
#include "src/core/synthetic_scene.h"

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

bool is_transfer(const std::string& stage) { return stage == "upload" || stage == "download"; }

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

int run_bench_command(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  try {
    std::unique_ptr<StereoEngine> engine = make_engine(options.engine, err);
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
    if (!options.json) {
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
              if (!is_transfer(s.stage)) device += s.milliseconds;
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
    if (options.json) print_json(rows, engine->name(), out);
    return 0;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
