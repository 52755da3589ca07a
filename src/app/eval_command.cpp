#include "src/app/eval_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "src/app/eval_pictures.h"
#include "src/core/evaluation.h"
#include "src/core/frame_budget.h"
#include "src/core/stereo_engine.h"
#include "src/io/dataset_loader.h"

namespace sv {

namespace {

const char* const kRegions[] = {"nonocc", "all", "disc"};

// The per-region rates, in the order the table shows them (bad-1 first: Middlebury's columns).
struct Metric {
  const char* label;  // table group title
  const char* json_key;
  double RegionErrors::*field;
};
const Metric kMetrics[] = {
    {"bad-1 (%)", "bad_1", &RegionErrors::bad_1},
    {"bad-0.5 (%)", "bad_0_5", &RegionErrors::bad_0_5},
    {"bad-2 (%)", "bad_2", &RegionErrors::bad_2},
    {"bad-4 (%)", "bad_4", &RegionErrors::bad_4},
};

struct PairResult {
  std::string name;
  int width = 0, height = 0;
  int num_disparities = 0;
  DisparityEvaluation evaluation;
  double milliseconds = 0.0;
};

// A region that exists and holds pixels, else nullptr (shown as "-", left out of averages).
const RegionErrors* usable_region(const DisparityEvaluation& ev, const char* region) {
  const RegionErrors* r = ev.find(region);
  return r && r->pixels > 0 ? r : nullptr;
}

// The region of the avg err and kept-1 columns: nonocc, or all where the data has no occlusion
// mask (a note under the table says which pairs).
const RegionErrors* summary_region(const DisparityEvaluation& ev) {
  const RegionErrors* nonocc = usable_region(ev, "nonocc");
  return nonocc ? nonocc : usable_region(ev, "all");
}

bool lacks_occlusion_mask(const PairResult& p) { return p.evaluation.find("nonocc") == nullptr; }

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class Mean {
 public:
  void add(double v) { sum_ += v, ++count_; }
  bool empty() const { return count_ == 0; }
  int count() const { return count_; }
  double value() const { return count_ ? sum_ / count_ : 0.0; }

 private:
  double sum_ = 0.0;
  int count_ = 0;
};

// Column means over the pairs; every region's rates and pixel totals.
struct Averages {
  Mean rate[4][3];  // [metric][region]
  Mean region_avg_error[3];
  Mean region_kept_bad_1[3];
  Mean summary_avg_error, summary_kept_bad_1;  // the table's avg err and kept-1 columns
  long long region_pixels[3] = {0, 0, 0};
  Mean density, milliseconds;
  Mean bad_1_columns;  // every (pair, region) bad-1 value
};

Averages average(const std::vector<PairResult>& pairs) {
  Averages a;
  for (const PairResult& p : pairs) {
    for (int r = 0; r < 3; ++r) {
      const RegionErrors* region = usable_region(p.evaluation, kRegions[r]);
      if (!region) continue;
      for (int m = 0; m < 4; ++m) a.rate[m][r].add(region->*kMetrics[m].field);
      a.region_avg_error[r].add(region->avg_abs_error);
      a.region_kept_bad_1[r].add(region->bad_1_kept);
      a.region_pixels[r] += region->pixels;
      a.bad_1_columns.add(region->bad_1);
    }
    if (const RegionErrors* summary = summary_region(p.evaluation)) {
      a.summary_avg_error.add(summary->avg_abs_error);
      a.summary_kept_bad_1.add(summary->bad_1_kept);
    }
    a.density.add(p.evaluation.density);
    a.milliseconds.add(p.milliseconds);
  }
  return a;
}

// ---- text table --------------------------------------------------------------------------------

std::string fixed(double v, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

std::string right(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string left(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

constexpr size_t kNumberWidth = 7;

std::string cell(const Mean& m, int decimals = 2) {
  return " " + right(m.empty() ? "-" : fixed(m.value(), decimals), kNumberWidth);
}

std::string cell(const RegionErrors* r, double RegionErrors::*field) {
  return " " + right(r ? fixed(r->*field, 2) : "-", kNumberWidth);
}

void write_table_header(std::ostream& out, size_t name_width) {
  const size_t group_width = 3 * (kNumberWidth + 1);
  std::string groups = left("", name_width) + "      ";
  std::string columns = left("pair", name_width) + " ndisp";
  for (const Metric& m : kMetrics) {
    groups += " " + left("  " + std::string(m.label), group_width);  // over the first column's text
    columns += " ";
    for (const char* region : kRegions) columns += " " + right(region, kNumberWidth);
  }
  groups += "  " + right("avg err", kNumberWidth + 1) + right("kept-1", kNumberWidth + 1) +
            right("density", kNumberWidth + 1) + right("time", kNumberWidth + 3);
  columns += "  " + right("nonocc", kNumberWidth + 1) + right("nonocc", kNumberWidth + 1) +
             right("%", kNumberWidth + 1) + right("ms", kNumberWidth + 3);
  out << groups << "\n" << columns << "\n";
}

void write_table_row(std::ostream& out, const PairResult& p, size_t name_width) {
  out << left(p.name, name_width) << " " << right(std::to_string(p.num_disparities), 5);
  for (const Metric& m : kMetrics) {
    out << " ";
    for (const char* region : kRegions) out << cell(usable_region(p.evaluation, region), m.field);
  }
  const RegionErrors* summary = summary_region(p.evaluation);
  out << "  " << cell(summary, &RegionErrors::avg_abs_error) << cell(summary, &RegionErrors::bad_1_kept)
      << " " << right(fixed(p.evaluation.density, 2), kNumberWidth) << " "
      << right(fixed(p.milliseconds, 1), kNumberWidth + 2) << "\n";
}

void write_table_average(std::ostream& out, const Averages& a,
                         const std::vector<PairResult>& pairs, size_t name_width) {
  out << left("average", name_width) << "      ";
  for (int m = 0; m < 4; ++m) {
    out << " ";
    for (int r = 0; r < 3; ++r) out << cell(a.rate[m][r]);
  }
  out << "  " << cell(a.summary_avg_error) << cell(a.summary_kept_bad_1) << cell(a.density)
      << "  " << cell(a.milliseconds, 1)
      << "\n\n";
  std::string unmasked;
  for (const PairResult& p : pairs) {
    if (lacks_occlusion_mask(p)) unmasked += (unmasked.empty() ? "" : ", ") + p.name;
  }
  if (!unmasked.empty()) {
    out << "no occlusion mask for " << unmasked << ": nonocc is not reported there (\"-\"), and "
        << "avg err and kept-1 are over all pixels with ground truth\n";
  }
  out << "average bad-1 over " << plural(static_cast<size_t>(a.bad_1_columns.count()), "column")
      << " (" << plural(pairs.size(), "pair") << " x regions): " << fixed(a.bad_1_columns.value(), 2)
      << " %\n";
}

// ---- JSON --------------------------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string quoted = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\r': quoted += "\\r"; break;
      case '\t': quoted += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          quoted += buffer;
        } else {
          quoted += c;  // UTF-8 passes through unchanged
        }
    }
  }
  return quoted + "\"";
}

// JSON has no inf or NaN: those become null.
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

std::string json_region(const RegionErrors* r) {
  if (!r) return "null";
  std::string s = "{\"pixels\": " + std::to_string(r->pixels);
  for (const Metric& m : kMetrics) s += ", \"" + std::string(m.json_key) + "\": " + json_number(r->*m.field);
  return s + ", \"avg_abs_error\": " + json_number(r->avg_abs_error) +
         ", \"bad_1_kept\": " + json_number(r->bad_1_kept) + "}";
}

std::string json_mean(const Mean& m) { return m.empty() ? "null" : json_number(m.value()); }

void write_json(std::ostream& out, const EvalOptions& options, const std::string& layout,
                const std::vector<PairResult>& pairs, const Averages& a) {
  out << "{\n";
  out << "  \"dataset\": " << json_string(options.dataset_dir) << ",\n";
  out << "  \"layout\": " << json_string(layout) << ",\n";
  out << "  \"algorithm\": " << json_string(options.params.algorithm) << ",\n";
  out << "  \"engine\": " << json_string(options.engine) << ",\n";
  out << "  \"pairs\": [";
  for (size_t i = 0; i < pairs.size(); ++i) {
    const PairResult& p = pairs[i];
    out << (i ? ",\n" : "\n") << "    {\"name\": " << json_string(p.name) << ", \"width\": " << p.width
        << ", \"height\": " << p.height << ", \"num_disparities\": " << p.num_disparities
        << ", \"density\": " << json_number(p.evaluation.density)
        << ", \"time_ms\": " << json_number(p.milliseconds) << ",\n     \"regions\": {";
    for (int r = 0; r < 3; ++r) {
      out << (r ? ", " : "") << "\"" << kRegions[r]
          << "\": " << json_region(usable_region(p.evaluation, kRegions[r]));
    }
    out << "}}";
  }
  out << "\n  ],\n";
  out << "  \"average\": {\"density\": " << json_mean(a.density)
      << ", \"time_ms\": " << json_mean(a.milliseconds) << ",\n    \"regions\": {";
  for (int r = 0; r < 3; ++r) {
    out << (r ? ", " : "") << "\"" << kRegions[r] << "\": ";
    if (a.rate[0][r].empty()) {
      out << "null";
      continue;
    }
    out << "{\"pixels\": " << a.region_pixels[r];
    for (int m = 0; m < 4; ++m) out << ", \"" << kMetrics[m].json_key << "\": " << json_mean(a.rate[m][r]);
    out << ", \"avg_abs_error\": " << json_mean(a.region_avg_error[r])
        << ", \"bad_1_kept\": " << json_mean(a.region_kept_bad_1[r]) << "}";
  }
  out << "}},\n";
  out << "  \"average_bad_1\": " << json_mean(a.bad_1_columns) << ",\n";
  out << "  \"bad_1_columns\": " << a.bad_1_columns.count() << "\n";
  out << "}\n";
}

// The summary page's line under a pair's name.
std::string pair_caption(const PairResult& p) {
  std::string caption = "bad-1";
  for (const char* region : kRegions) {
    const RegionErrors* r = usable_region(p.evaluation, region);
    caption += std::string(" ") + region + " " + (r ? fixed(r->bad_1, 2) + " %" : "-");
  }
  return caption + "; density " + fixed(p.evaluation.density, 2) + " %; " +
         std::to_string(p.width) + "x" + std::to_string(p.height) + ", " +
         std::to_string(p.num_disparities) + " disparities";
}

}  // namespace

EvalComputeFn eval_compute_with(StereoEngine& engine, std::ostream& notices) {
  auto budget = std::make_shared<FrameBudget>();
  return [&engine, &notices, budget](const ImageRgb8& left_image, const ImageRgb8& right_image,
                                     const StereoParams& params) {
    const std::string slow = budget->check(engine, left_image.width(), left_image.height(), params);
    if (!slow.empty()) notices << "note: " << slow << "\n";
    DisparityResult result = engine.compute(left_image, right_image, params);
    return EvalComputeResult{std::move(result.disparity), result.timings.total_ms()};
  };
}

int run_eval_command(const EvalOptions& options, const EvalComputeFn& compute, std::ostream& out,
                     std::ostream& err) {
  std::string current_pair;
  try {
    const std::vector<StereoSample> samples = load_dataset(options.dataset_dir);
    const std::string layout = detect_layout(options.dataset_dir);
    std::optional<EvalPictures> pictures;
    if (!options.out_dir.empty()) pictures.emplace(options.out_dir);

    // The text table goes to `out` as it grows (rows appear as pairs finish) and, for the
    // summary page, into `table`.
    std::ostringstream table;
    auto emit = [&](const std::string& text) {
      table << text;
      if (!options.json) out << text << std::flush;
    };
    size_t name_width = 8;
    for (const StereoSample& s : samples) name_width = std::max(name_width, s.name.size());
    const std::string title = "eval " + options.dataset_dir + " (" + layout + ", " +
                              std::to_string(samples.size()) +
                              (samples.size() == 1 ? " pair" : " pairs") + "), algorithm " +
                              options.params.algorithm + ", engine " + options.engine;
    if (!options.json) out << title << "\n\n";
    {
      std::ostringstream header;
      write_table_header(header, name_width);
      emit(header.str());
    }

    std::vector<PairResult> pairs;
    for (const StereoSample& sample : samples) {
      current_pair = sample.name;
      StereoParams params = options.params;
      if (!options.params_disparities_given) params.num_disparities = sample.num_disparities;
      const EvalComputeResult computed = compute(sample.left, sample.right, params);

      PairResult p;
      p.name = sample.name;
      p.width = sample.left.width();
      p.height = sample.left.height();
      p.num_disparities = params.num_disparities;
      p.evaluation = evaluate_disparity(computed.disparity, sample.ground_truth, sample.masks);
      p.milliseconds = computed.milliseconds;
      std::ostringstream row;
      write_table_row(row, p, name_width);
      emit(row.str());
      if (pictures) {
        pictures->add_pair(sample.name, pair_caption(p), sample.left, computed.disparity,
                           sample.ground_truth, sample.masks);
      }
      pairs.push_back(std::move(p));
    }
    current_pair.clear();

    const Averages averages = average(pairs);
    std::ostringstream end;
    write_table_average(end, averages, pairs, name_width);
    emit(end.str());
    if (options.json) write_json(out, options, layout, pairs, averages);
    if (pictures) pictures->write_summary(title, table.str());
    return 0;
  } catch (const std::exception& e) {
    out.flush();
    err << "error: eval";
    if (!current_pair.empty()) err << " (pair " << current_pair << ")";
    err << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
