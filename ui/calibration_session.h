#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "src/core/image.h"
#include "src/io/stereo_calibrator.h"

namespace sv {

// The Calibrate window's work, without GL or ImGui: the board is looked for in the newest pair
// on a detection thread (the view stays live), views are captured on request or automatically
// when the board is seen by both views and held still somewhere new, and the calibration runs on
// a worker thread with its progress readable at any time. A pair (by its frame index) is captured
// once at most. Everything but the two threads runs on the GL thread.
class CalibrationSession {
 public:
  CalibrationSession();
  ~CalibrationSession();
  CalibrationSession(const CalibrationSession&) = delete;
  CalibrationSession& operator=(const CalibrationSession&) = delete;

  // Starts over with `settings`: no views, no result.
  void start(const CalibrationSettings& settings);
  bool started() const { return calibrator_ != nullptr; }

  // Pairs that are photographs of their own (image pairs and sequences), not frames of a moving
  // scene: no pair is skipped (they queue for the detector, up to kMaxQueuedStills), and auto
  // capture takes each usable one, as there is no holding still between stills. Kept by start().
  void set_stills(bool stills) { stills_ = stills; }
  static constexpr size_t kMaxQueuedStills = 64;

  // The pair on screen; taken by the detection thread when it is idle (else skipped, except
  // stills: see set_stills).
  void offer(const ImageRgb8& left, const ImageRgb8& right, int64_t index);
  // Pairs offered whose detection update() has not collected yet.
  bool detecting() const;
  // Stills: whether the detector has room for another pair now (the caller holds the rest back,
  // so a file waits for the detector instead of skipping pairs).
  bool ready_for_pair() const;
  // The different pairs (frame indices) detected since start().
  size_t pairs_looked_at() const { return looked_at_.size(); }
  // Collects what the threads finished and captures a view when one is due. Returns lines for
  // the log ("captured view 3 (frame 40)", "calibrated: ...").
  std::vector<std::string> update();

  void request_capture() { capture_requested_ = true; }
  bool auto_capture = true;
  // Off once the result is applied: the views are rectified then and serve as its preview (the
  // vertical offset readout), not as views to calibrate from. start() turns it on again.
  void set_capturing(bool on) { capturing_ = on; }
  bool capturing() const { return capturing_; }

  // Starts the calibration on the worker thread; false (and a log line from update) when one
  // runs already or too few views are captured.
  bool run_calibration();
  bool calibrating() const { return calibrating_; }
  double progress() const;
  std::string progress_stage() const;

  // The newest detection (empty before the first).
  const std::optional<ViewCheck>& detection() const { return detection_; }
  int detection_width() const { return shown_width_; }  // the size of detection()'s images
  int detection_height() const { return shown_height_; }
  // The vertical offset between the two views' corners in the newest detection (mean, px):
  // the epipolar error once the views are rectified. Negative without a board in both views.
  double vertical_offset_px() const;
  int view_count() const { return calibrator_ ? calibrator_->view_count() : 0; }
  int minimum_views() const { return calibrator_ ? calibrator_->settings().minimum_views : 0; }
  const StereoCalibrator* calibrator() const { return calibrator_.get(); }
  // Coverage grid (cols x rows cells) of one camera: true where a captured corner fell.
  std::vector<bool> coverage_cells(bool left_camera, int cols, int rows) const;

  const std::optional<CalibrationResult>& result() const { return result_; }
  const std::string& error() const { return error_; }

 private:
  struct DetectionJob {
    ImageU8 left, right;
    int64_t index = 0;
  };
  struct Detection {
    ViewCheck check;
    int64_t index = 0;
    int width = 0, height = 0;
  };
  void detection_loop();
  void collect(Detection detection);
  void try_capture(const ViewCheck& check, int64_t index, int width, int height);

  std::unique_ptr<StereoCalibrator> calibrator_;

  // Detection thread (from the first start()): one job at a time, in the order offered.
  std::thread detector_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::deque<DetectionJob> jobs_;  // waiting (one at most unless stills_)
  bool job_running_ = false;
  std::deque<Detection> done_;     // finished, for update()
  CalibrationSettings job_settings_;
  uint64_t generation_ = 0;        // start() calls: a job of the board before is dropped
  size_t skipped_stills_ = 0;      // beyond kMaxQueuedStills, logged by update()

  bool stills_ = false;
  std::vector<int64_t> captured_indices_;  // the frame of each captured view, in order
  std::set<int64_t> looked_at_;
  std::optional<ViewCheck> detection_;
  int shown_width_ = 0, shown_height_ = 0;
  int still_detections_ = 0;                  // in a row, with the board held still
  bool capture_requested_ = false;
  bool capturing_ = true;
  std::vector<std::string> pending_log_;

  // Calibration worker.
  std::thread worker_;
  std::atomic<bool> calibrating_{false};
  std::atomic<bool> worker_done_{false};
  mutable std::mutex progress_mutex_;
  double progress_ = 0.0;
  std::string stage_;
  std::optional<CalibrationResult> worker_result_;
  std::string worker_error_;
  std::optional<CalibrationResult> result_;
  std::string error_;
};

}  // namespace sv
