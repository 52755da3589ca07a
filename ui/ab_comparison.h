#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/app/pair_fan_out.h"
#include "src/app/processing_thread.h"
#include "src/app/timing_history.h"
#include "src/core/disparity_difference.h"
#include "src/core/evaluation.h"
#include "src/core/stereo_params.h"
#include "ui/engine_choice.h"
#include "ui/source_truth.h"
#include "ui/viewer_settings.h"

namespace sv {

// The A/B comparison of issue 22: a second parameter set (or algorithm, or engine), B, run on
// the same pairs as the viewer's own, A, shown beside it or as their difference.

enum class AbSide { A, B };

// What the panel, a script and the command line set (part of ViewerState).
struct AbSettings {
  bool enabled = false;
  AbSide edited = AbSide::A;      // which side the panel's engine and parameters edit
  StereoParams params;            // B's; A's are ViewerState::params
  EngineChoice engine;            // B's engine box
  float difference_scale = 4.0f;  // |A - B| in px drawn at the brightest colour
};

// What they ask of the app this frame (part of PanelRequests).
struct AbRequests {
  std::optional<bool> enable;   // turn A/B on or off
  bool params_changed = false;  // B's parameters
  std::string engine;           // B's engine kind to switch to, or ""
  bool copy_a_to_b = false;
  bool copy_b_to_a = false;
};

// A pair as both sides know it: its index and time stamp (a looping file repeats indices).
struct AbPairKey {
  int64_t index = -1;
  double timestamp_s = 0.0;
  bool operator==(const AbPairKey& o) const {
    return index == o.index && timestamp_s == o.timestamp_s;
  }
};

// One side's result of one pair.
struct AbSideResult {
  AbPairKey key;
  int64_t sequence = 0;  // the side's ProcessedFrame::sequence
  uint64_t params_generation = 0;
  StereoParams params;
  std::string engine;
  ImageF32 disparity;
  double processing_ms = 0.0;
  // Against the ground truth, where the source has one: over its non-occluded pixels (the
  // synthetic scene, datasets with an occlusion mask), else all with known truth (region "all").
  std::optional<RegionErrors> errors;
  double density = 0.0;                // percent valid among pixels with ground truth
};

// The newest pair both sides computed, and how their disparities differ.
struct AbMatch {
  AbSideResult a, b;
  std::shared_ptr<const ProcessedFrame> b_frame;  // B's whole result: its snapshot, its recording
  DisparityDifference difference;
  // The errors of a and b are this pair's (or it has no ground truth). Until they are, a and b
  // carry those of the last pair evaluated, errors_index (-1: none yet), as a running source
  // may bring pairs faster than their ground truth can be made.
  bool evaluated = false;
  int64_t errors_index = -1;
};

// A pair's ground truth (SourceTruth: the synthetic scene's, a dataset's), nullopt for none.
using AbTruthFn = std::function<std::optional<PairTruth>(const AbPairKey& key)>;

// B's side while A/B is on: its own processing thread on a queue the pipeline's fan-out fills
// with a copy of every pair A gets, its timings, and the matching of its results with A's by
// pair. Lives on the GL thread; never waits for B.
class AbComparison {
 public:
  AbComparison() = default;
  ~AbComparison();
  AbComparison(const AbComparison&) = delete;
  AbComparison& operator=(const AbComparison&) = delete;

  // Starts B on `first` (the pair on screen, when A/B is switched on during a run), then on the
  // pairs `fan_out` takes from now on, in a queue of `policy` (the source's); paused, B computes
  // one pair (`first`, else the next) and waits like A. Throws what the engine factory throws; B is then not running.
  void start(PairFanOut& fan_out, QueueFullPolicy policy, EngineFactory factory,
             const std::string& engine_kind, const StereoParams& params, const ResultParts& want,
             std::optional<StereoPair> first, bool paused);
  // Ends B's thread and forgets its results (the fan-out sends nothing more).
  void stop();
  bool running() const { return processing_ != nullptr; }
  ProcessingThread* processing() { return processing_.get(); }
  const ProcessingThread* processing() const { return processing_.get(); }

  // With ground truth (null: none), each side's errors are computed for the newest match, on a
  // worker thread (the synthetic scene's truth costs a render of the frame); `truth` is called
  // there. Datasets' truth comes the same way (SourceTruth). match() gets them when they are done.
  void set_truth(AbTruthFn truth) { truth_ = std::move(truth); }
  // The match shown still waits for its errors.
  bool errors_pending() const { return truth_ && match_ && !match_->evaluated; }
  void set_tolerance(float tolerance_px) { tolerance_ = tolerance_px; }

  // A's result now on screen.
  void add_a(const ProcessedFrame& a);
  // B's newest result, if one came (its stage timings go to timings_b()); B's messages go to
  // `messages`.
  void collect_b(std::vector<std::string>& messages);
  // The newest pair both sides have; nullopt until there is one.
  const std::optional<AbMatch>& match() const { return match_; }
  // Bumped whenever match() changes, so the display knows to redraw.
  uint64_t match_version() const { return match_version_; }
  const TimingHistory& timings_b() const { return timings_b_; }

 private:
  void update_match();
  AbSideResult side_result(const ProcessedFrame& frame) const;
  // Takes finished errors for the match they belong to, and starts them for a match without.
  void poll_errors();

  struct SideErrors {
    std::optional<RegionErrors> errors;
    double density = 0.0;
  };
  struct PairErrors {
    AbPairKey key;
    int64_t a_sequence = 0, b_sequence = 0;
    SideErrors a, b;
  };

  PairFanOut* fan_out_ = nullptr;
  std::shared_ptr<PairQueue> queue_;
  std::unique_ptr<ProcessingThread> processing_;
  AbTruthFn truth_;
  float tolerance_ = 0.0f;
  // A few recent results per side: B may lag A by the pairs in flight.
  std::deque<AbSideResult> recent_a_;
  std::deque<std::shared_ptr<const ProcessedFrame>> recent_b_;
  std::optional<AbMatch> match_;
  uint64_t match_version_ = 0;
  std::future<PairErrors> errors_;  // the errors being computed, if any
  TimingHistory timings_b_;
};

// The A/B views: A beside B (layout 2), or the difference alone (layout 1).
void show_side_by_side(ViewerSettings& settings);
void show_difference(ViewerSettings& settings);

// A script's "ab" command other than "ab set" (ScriptEvent::value of ScriptAction::Ab: "on",
// "engine cpu", "copy a-to-b", "edit b", "view side", ...), as the panel would do it.
void apply_ab_command(const std::string& command, AbSettings& ab, AbRequests& requests,
                      ViewerSettings& settings);

// One line per side and one for the difference, as the panel shows them and a scripted run
// prints them with its screenshot:
//   "A: cpu, sgm-census p1 10 p2 120, 12.3 ms, bad-1 4.20 %, valid 91.0 %"
//   "difference: 1234 of 76800 pixels (differ 1000, only A 200, only B 34), mean |A-B| 0.81 px"
std::vector<std::string> ab_summary_lines(const AbMatch& match);
// The parameters in which B differs from A, "p2 120 -> 200"; "same parameters" when none.
std::string ab_parameter_changes(const StereoParams& a, const StereoParams& b);

}  // namespace sv
