#include "ui/ab_comparison.h"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "src/core/disparity.h"
#include "src/core/param_table.h"

namespace sv {
namespace {

// Results kept per side for matching: more than the pairs that can be in flight between the
// two (each side's queue, its engine, the fan-out's hand).
constexpr size_t kRecentResults = 6;

std::string side_line(const char* name, const AbSideResult& side, const AbMatch& match) {
  char text[256];
  std::snprintf(text, sizeof text, "%s: %s, %s, %.1f ms", name, side.engine.c_str(),
                side.params.algorithm.c_str(), side.processing_ms);
  std::string line = text;
  if (side.errors) {
    std::snprintf(text, sizeof text, ", bad-1 %.2f %%, bad-2 %.2f %%, valid %.1f %%",
                  side.errors->bad_1, side.errors->bad_2, side.density);
    line += text;
    if (side.errors->region != "nonocc") line += " (" + side.errors->region + ")";
    if (match.errors_index != side.key.index) {
      line += " (frame " + std::to_string(match.errors_index) + ")";
    } else if (!match.evaluated) {
      line += " (before the change)";
    }
  }
  return line;
}

}  // namespace

AbComparison::~AbComparison() { stop(); }

void AbComparison::start(PairFanOut& fan_out, QueueFullPolicy policy, EngineFactory factory,
                         const std::string& engine_kind, const StereoParams& params,
                         const ResultParts& want, std::optional<StereoPair> first, bool paused) {
  stop();
  // One pair waiting, as A's queue: B falls at most a pair or two behind A.
  auto queue = std::make_shared<PairQueue>(1, policy);
  auto processing =
      std::make_unique<ProcessingThread>(*queue, std::move(factory), engine_kind, params);
  processing->set_result_parts(want);
  if (first) queue->push(std::move(*first));
  processing->set_paused(paused);
  if (paused) processing->step();  // the pair on screen, or a new source's first, as A
  processing->start();
  queue_ = std::move(queue);
  processing_ = std::move(processing);
  fan_out_ = &fan_out;
  fan_out.attach(queue_);
}

void AbComparison::stop() {
  if (fan_out_ && queue_) fan_out_->detach(queue_);  // closes the queue: B's thread sees the end
  if (processing_) processing_->stop();
  if (errors_.valid()) errors_.wait();  // a frame's evaluation at most
  errors_ = {};
  processing_.reset();
  queue_.reset();
  fan_out_ = nullptr;
  recent_a_.clear();
  recent_b_.clear();
  match_.reset();
  ++match_version_;
  timings_b_.clear();
}

AbSideResult AbComparison::side_result(const ProcessedFrame& frame) const {
  AbSideResult side;
  side.key = {frame.pair.index, frame.pair.timestamp_s};
  side.sequence = frame.sequence;
  side.params_generation = frame.params_generation;
  side.params = frame.params;
  side.engine = frame.engine;
  side.disparity = frame.result.disparity;
  side.processing_ms = frame.processing_ms;
  return side;
}

void AbComparison::add_a(const ProcessedFrame& a) {
  if (!running()) return;
  recent_a_.push_back(side_result(a));
  while (recent_a_.size() > kRecentResults) recent_a_.pop_front();
  update_match();
  poll_errors();
}

void AbComparison::collect_b(std::vector<std::string>& messages) {
  if (!processing_) return;
  for (std::string& message : processing_->take_messages()) messages.push_back(std::move(message));
  poll_errors();
  std::optional<ProcessedFrame> frame = processing_->take_latest();
  if (!frame) return;
  timings_b_.add(with_host_time(frame->result.timings, frame->host_ms), frame->processing_ms);
  recent_b_.push_back(std::make_shared<const ProcessedFrame>(std::move(*frame)));
  while (recent_b_.size() > kRecentResults) recent_b_.pop_front();
  update_match();
}

void AbComparison::poll_errors() {
  if (errors_.valid()) {
    if (errors_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    const PairErrors done = errors_.get();
    if (match_ && !match_->evaluated) {
      match_->a.errors = done.a.errors;
      match_->a.density = done.a.density;
      match_->b.errors = done.b.errors;
      match_->b.density = done.b.density;
      match_->errors_index = done.key.index;
      match_->evaluated = match_->a.key == done.key && match_->a.sequence == done.a_sequence &&
                          match_->b.sequence == done.b_sequence;
      ++match_version_;
    }
  }
  if (!truth_ || !match_ || match_->evaluated) return;
  PairErrors pair;
  pair.key = match_->a.key;
  pair.a_sequence = match_->a.sequence;
  pair.b_sequence = match_->b.sequence;
  errors_ = std::async(std::launch::async, [pair, truth = truth_, a = match_->a.disparity,
                                            b = match_->b.disparity]() mutable {
    const std::optional<PairTruth> t = truth(pair.key);
    auto evaluate = [&](const ImageF32& disparity, SideErrors& side) {
      if (!t || !t->disparity.same_size(disparity)) return;
      const DisparityEvaluation e = evaluate_disparity(disparity, t->disparity, t->masks);
      if (const RegionErrors* region = e.find(SourceTruth::region_of(*t))) side.errors = *region;
      side.density = e.density;
    };
    evaluate(a, pair.a);
    evaluate(b, pair.b);
    return pair;
  });
}

void AbComparison::update_match() {
  // The newest pair both have: B's newest first, against A's newest of the same pair.
  for (auto b = recent_b_.rbegin(); b != recent_b_.rend(); ++b) {
    const AbPairKey key{(*b)->pair.index, (*b)->pair.timestamp_s};
    for (auto a = recent_a_.rbegin(); a != recent_a_.rend(); ++a) {
      if (!(a->key == key)) continue;
      if (match_ && match_->a.sequence == a->sequence && match_->b.sequence == (*b)->sequence) {
        return;  // what is shown already
      }
      // A pair older than the one shown comes only after a seek or a loop; show it all the same.
      AbMatch match;
      match.a = *a;
      match.b = side_result(**b);
      match.b_frame = *b;
      if (!match.a.disparity.same_size(match.b.disparity)) return;
      match.difference = disparity_difference(match.a.disparity, match.b.disparity, tolerance_);
      if (match_) {  // the last errors known, until this pair's come
        match.a.errors = match_->a.errors;
        match.a.density = match_->a.density;
        match.b.errors = match_->b.errors;
        match.b.density = match_->b.density;
        match.errors_index = match_->errors_index;
      }
      match_ = std::move(match);
      ++match_version_;
      poll_errors();
      return;
    }
  }
}

void show_side_by_side(ViewerSettings& settings) {
  settings.layout = 2;
  settings.views[0] = ViewKind::Disparity;
  settings.views[1] = ViewKind::DisparityB;
}

void show_difference(ViewerSettings& settings) {
  settings.layout = 1;
  settings.views[0] = ViewKind::Difference;
}

void apply_ab_command(const std::string& command, AbSettings& ab, AbRequests& requests,
                      ViewerSettings& settings) {
  std::istringstream words(command);
  std::string sub, argument;
  words >> sub >> argument;
  if (sub == "on" || sub == "off") requests.enable = sub == "on";
  if (sub == "engine") requests.engine = argument;
  if (sub == "copy" && argument == "a-to-b") requests.copy_a_to_b = true;
  if (sub == "copy" && argument == "b-to-a") requests.copy_b_to_a = true;
  if (sub == "edit") ab.edited = argument == "b" ? AbSide::B : AbSide::A;
  if (sub == "view" && argument == "side") show_side_by_side(settings);
  if (sub == "view" && argument == "difference") show_difference(settings);
}

std::string ab_parameter_changes(const StereoParams& a, const StereoParams& b) {
  std::string out;
  for (const ParamDescriptor& d : param_table()) {
    const std::string va = d.get(a), vb = d.get(b);
    if (va != vb) out += (out.empty() ? "" : ", ") + d.key + " " + va + " -> " + vb;
  }
  return out.empty() ? "same parameters" : out;
}

std::vector<std::string> ab_summary_lines(const AbMatch& match) {
  std::vector<std::string> lines;
  char text[320];
  std::snprintf(text, sizeof text, "A/B frame %lld: %s", static_cast<long long>(match.a.key.index),
                ab_parameter_changes(match.a.params, match.b.params).c_str());
  lines.push_back(text);
  lines.push_back(side_line("A", match.a, match));
  lines.push_back(side_line("B", match.b, match));
  const DifferenceCounts& c = match.difference.counts;
  std::snprintf(text, sizeof text,
                "difference: %lld of %lld pixels (differ %lld, only A %lld, only B %lld), "
                "mean |A-B| %.3f px, max %.2f px",
                static_cast<long long>(c.changed()), static_cast<long long>(c.pixels),
                static_cast<long long>(c.differ), static_cast<long long>(c.only_a),
                static_cast<long long>(c.only_b), c.mean_abs, c.max_abs);
  lines.push_back(text);
  return lines;
}

}  // namespace sv
