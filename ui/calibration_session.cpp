#include "ui/calibration_session.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sv {
namespace {

// A board that moved less than this (mean over its corners, px) between two detections is held
// still; auto capture takes it after kStillDetections such detections in a row.
constexpr double kStillMotionPx = 1.0;
constexpr int kStillDetections = 2;

}  // namespace

CalibrationSession::CalibrationSession() = default;

CalibrationSession::~CalibrationSession() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (detector_.joinable()) detector_.join();
  if (worker_.joinable()) worker_.join();
}

void CalibrationSession::start(const CalibrationSettings& settings) {
  if (worker_.joinable()) worker_.join();  // a calibration of the views before: its result goes
  worker_done_ = false;
  calibrating_ = false;
  calibrator_ = std::make_unique<StereoCalibrator>(settings);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_settings_ = settings;
    ++generation_;
    jobs_.clear();
    done_.clear();
    skipped_stills_ = 0;
  }
  // Started here, not in the constructor: the thread needs every member (its mutex) built, and
  // a viewer that never calibrates runs no detector.
  if (!detector_.joinable()) detector_ = std::thread([this] { detection_loop(); });
  detection_.reset();
  shown_width_ = shown_height_ = 0;
  capturing_ = true;
  still_detections_ = 0;
  captured_indices_.clear();
  looked_at_.clear();
  result_.reset();
  error_.clear();
}

void CalibrationSession::offer(const ImageRgb8& left, const ImageRgb8& right, int64_t index) {
  if (!calibrator_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stills_ && (job_running_ || !jobs_.empty())) return;  // busy: this pair is skipped
    if (jobs_.size() >= kMaxQueuedStills) {
      ++skipped_stills_;
      return;
    }
    jobs_.push_back(DetectionJob{to_gray(left), to_gray(right), index});
  }
  wake_.notify_all();
}

bool CalibrationSession::detecting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return job_running_ || !jobs_.empty() || !done_.empty();
}

bool CalibrationSession::ready_for_pair() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return jobs_.size() < 2;  // one waiting while one is looked at: the detector never idles
}

void CalibrationSession::detection_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    const DetectionJob job = std::move(jobs_.front());
    jobs_.pop_front();
    job_running_ = true;
    const CalibrationSettings settings = job_settings_;
    const uint64_t generation = generation_;
    const std::string name = "frame " + std::to_string(job.index);
    lock.unlock();
    ViewCheck check;
    try {
      check = StereoCalibrator(settings).check_view(job.left, job.right, name);
    } catch (const std::exception& e) {
      check.view.name = name;
      check.reason = e.what();
    }
    lock.lock();
    job_running_ = false;
    if (generation == generation_) {
      done_.push_back(Detection{std::move(check), job.index, job.left.width(), job.left.height()});
    }
  }
}

std::vector<std::string> CalibrationSession::update() {
  std::vector<std::string> log = std::move(pending_log_);
  pending_log_.clear();
  if (worker_done_) {
    worker_.join();
    worker_done_ = false;
    calibrating_ = false;
    std::lock_guard<std::mutex> lock(progress_mutex_);
    result_ = std::move(worker_result_);
    worker_result_.reset();
    error_ = worker_error_;
    if (result_) {
      char line[160];
      std::snprintf(line, sizeof line,
                    "calibrate: done: RMS %.3f px, epipolar error mean %.3f px, baseline %.4f, "
                    "focal %.1f px",
                    result_->report.rms_px, result_->report.epipolar_mean_px,
                    result_->report.baseline, result_->report.rectified_focal_px);
      log.push_back(line);
    } else {
      log.push_back("calibrate: failed: " + error_);
    }
  }
  std::deque<Detection> fresh;
  size_t skipped = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fresh.swap(done_);
    std::swap(skipped, skipped_stills_);
  }
  if (skipped > 0) {
    log.push_back("calibrate: " + std::to_string(skipped) +
                  " pairs not looked at: the board detection fell behind (pause, or play slower)");
  }
  for (Detection& detection : fresh) {
    if (!calibrator_) break;
    collect(std::move(detection));
    log.insert(log.end(), pending_log_.begin(), pending_log_.end());
    pending_log_.clear();
  }
  return log;
}

void CalibrationSession::collect(Detection detection) {
  const bool still = detection_ && detection.check.usable && detection_->usable &&
                     board_motion_px(detection.check.view.left, detection_->view.left) < kStillMotionPx;
  still_detections_ = still ? still_detections_ + 1 : 0;
  looked_at_.insert(detection.index);
  detection_ = std::move(detection.check);
  shown_width_ = detection.width;
  shown_height_ = detection.height;
  try_capture(*detection_, detection.index, detection.width, detection.height);
}

void CalibrationSession::try_capture(const ViewCheck& check, int64_t index, int width, int height) {
  if (!capturing_) {
    capture_requested_ = false;
    return;
  }
  const auto captured = std::find(captured_indices_.begin(), captured_indices_.end(), index);
  bool due = false;
  if (capture_requested_) {
    capture_requested_ = false;
    if (!check.usable) {
      pending_log_.push_back("calibrate: not captured: " + check.reason);
      return;
    }
    if (captured != captured_indices_.end()) {
      pending_log_.push_back("calibrate: not captured: " + check.view.name + " is view " +
                             std::to_string(captured - captured_indices_.begin() + 1) + " already");
      return;
    }
    due = true;
  } else if (auto_capture && check.usable && captured == captured_indices_.end()) {
    if (stills_) {
      due = true;
    } else if (still_detections_ >= kStillDetections) {
      // Held still somewhere new: a twentieth of the image away from every captured view.
      const double min_move = std::hypot(width, height) / 20.0;
      due = std::all_of(calibrator_->views().begin(), calibrator_->views().end(), [&](const StereoView& v) {
        return board_motion_px(check.view.left, v.left) >= min_move;
      });
    }
  }
  if (!due || calibrating_) return;
  try {
    calibrator_->add(check, width, height);
  } catch (const std::exception& e) {
    pending_log_.push_back(std::string("calibrate: ") + e.what());
    return;
  }
  captured_indices_.push_back(index);
  pending_log_.push_back("calibrate: captured view " + std::to_string(calibrator_->view_count()) +
                         " (" + check.view.name + ")");
}

bool CalibrationSession::run_calibration() {
  if (!calibrator_ || calibrating_) return false;
  calibrating_ = true;
  {
    std::lock_guard<std::mutex> lock(progress_mutex_);
    progress_ = 0.0;
    stage_ = "starting";
  }
  error_.clear();
  // The worker calibrates a copy: views captured meanwhile wait for the next run.
  worker_ = std::thread([this, calibrator = *calibrator_] {
    std::optional<CalibrationResult> result;
    std::string error;
    try {
      result = calibrator.calibrate([this](double fraction, const std::string& stage) {
        std::lock_guard<std::mutex> lock(progress_mutex_);
        progress_ = fraction;
        stage_ = stage;
      });
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard<std::mutex> lock(progress_mutex_);
    worker_result_ = std::move(result);
    worker_error_ = error;
    worker_done_ = true;
  });
  return true;
}

double CalibrationSession::progress() const {
  std::lock_guard<std::mutex> lock(progress_mutex_);
  return progress_;
}

std::string CalibrationSession::progress_stage() const {
  std::lock_guard<std::mutex> lock(progress_mutex_);
  return stage_;
}

double CalibrationSession::vertical_offset_px() const {
  if (!detection_ || !detection_->view.left.found() || !detection_->view.right.found()) return -1.0;
  std::map<int, float> right_y;
  const BoardCorners& r = detection_->view.right;
  for (size_t i = 0; i < r.ids.size(); ++i) right_y[r.ids[i]] = r.points[i].y;
  const BoardCorners& l = detection_->view.left;
  double sum = 0.0;
  int count = 0;
  for (size_t i = 0; i < l.ids.size(); ++i) {
    const auto match = right_y.find(l.ids[i]);
    if (match == right_y.end()) continue;
    sum += std::fabs(l.points[i].y - match->second);
    ++count;
  }
  return count > 0 ? sum / count : -1.0;
}

std::vector<bool> CalibrationSession::coverage_cells(bool left_camera, int cols, int rows) const {
  std::vector<bool> cells(static_cast<size_t>(cols) * rows, false);
  if (!calibrator_ || calibrator_->width() <= 0) return cells;
  for (const StereoView& view : calibrator_->views()) {
    for (const CornerPoint& p : (left_camera ? view.left : view.right).points) {
      const int cx = static_cast<int>(p.x * cols / calibrator_->width());
      const int cy = static_cast<int>(p.y * rows / calibrator_->height());
      if (cx >= 0 && cy >= 0 && cx < cols && cy < rows) cells[static_cast<size_t>(cy) * cols + cx] = true;
    }
  }
  return cells;
}

}  // namespace sv
