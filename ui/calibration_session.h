#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "src/core/image.h"
#include "src/io/stereo_calibrator.h"

namespace sv {

// The Calibrate window's work, without GL or ImGui: the board is looked for in the newest pair
// on a detection thread (the view stays live), views are captured on request or automatically
// when the board is seen by both views and held still somewhere new, and the calibration runs on
// a worker thread with its progress readable at any time. Everything but the two threads runs on
// the GL thread.
class CalibrationSession {
 public:
  CalibrationSession();
  ~CalibrationSession();
  CalibrationSession(const CalibrationSession&) = delete;
  CalibrationSession& operator=(const CalibrationSession&) = delete;

  // Starts over with `settings`: no views, no result.
  void start(const CalibrationSettings& settings);
  bool started() const { return calibrator_ != nullptr; }

  // The pair on screen; taken by the detection thread when it is idle (else skipped).
  void offer(const ImageRgb8& left, const ImageRgb8& right, int64_t index);
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
  void detection_loop();
  void try_capture(const ViewCheck& check, int width, int height);

  std::unique_ptr<StereoCalibrator> calibrator_;

  // Detection thread (from the first start()): one job at a time.
  std::thread detector_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool job_waiting_ = false;
  bool job_done_ = false;
  ImageU8 job_left_, job_right_;
  int64_t job_index_ = 0;
  std::optional<ViewCheck> job_result_;
  CalibrationSettings job_settings_;

  int detection_width_ = 0, detection_height_ = 0;  // the job's, under mutex_
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
