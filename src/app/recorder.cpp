#include "src/app/recorder.h"

#include <cstdio>

#include "src/core/colorize.h"
#include "src/core/error.h"

namespace sv {

Recorder::Recorder(RecorderSettings settings, NoticeSink notices)
    : settings_(std::move(settings)),
      queue_(settings_.queue_capacity, QueueFullPolicy::Block),
      started_(std::chrono::steady_clock::now()) {
  encoder_ = make_recording_encoder(settings_.encoder, std::move(notices));
  RecordingSidecar& s = sidecar_;
  s.file = settings_.encoder.path;
  s.format = settings_.encoder.format;
  s.codec = encoder_->codec();
  s.frames_per_second = settings_.encoder.frames_per_second;
  s.source = settings_.source;
  s.engine = settings_.engine;
  s.params = settings_.params;
  s.colormap = colormap_name(settings_.encoder.colormap);
  s.color_min = settings_.encoder.color_min;
  s.color_max = settings_.encoder.color_max;
  s.u16_encoding = settings_.encoder.u16_encoding;
  s.calibration_file = settings_.calibration_file;
  s.geometry = settings_.geometry;
  thread_ = std::thread([this] { run(); });
}

Recorder::~Recorder() { stop(); }

bool Recorder::submit(RecordingFrame frame) {
  if (failed_ || stopping_) return false;
  // Only this (single) producer adds items, so a queue seen with room keeps it until the push.
  if (queue_.size() >= queue_.capacity()) {
    ++dropped_;
    return false;
  }
  return queue_.push(std::move(frame));
}

bool Recorder::submit_waiting(RecordingFrame frame) {
  if (failed_ || stopping_) return false;
  return queue_.push(std::move(frame));  // Block policy: waits; refused once the queue closes
}

void Recorder::run() {
  while (std::optional<RecordingFrame> frame = queue_.pop()) {
    if (failed_) continue;  // what was queued before the failure is let go
    write_one(*frame);
  }
  if (!failed_) {
    try {
      encoder_->finish();
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_written_ = encoder_->bytes_written();
}

void Recorder::write_one(const RecordingFrame& frame) {
  try {
    encoder_->write(frame);
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sidecar_.frames.push_back({frame.index, frame.timestamp_s});
    bytes_written_ = encoder_->bytes_written();
    if (description_.empty()) description_ = encoder_->describe();
    first = sidecar_.frames.size() == 1;
    if (first) {
      // A raw recording learns its sample depth, codec and file from the first frame.
      if (!encoder_->file().empty()) actual_file_ = sidecar_.file = encoder_->file();
      sidecar_.codec = encoder_->codec();
      sidecar_.sample_depth = encoder_->sample_depth();
      sidecar_.replay = encoder_->replay_flags();
    }
  }
  if (first) write_sidecar_now(false);
}

void Recorder::fail(const std::string& message) {
  failed_ = true;
  queue_.close();  // wakes a producer waiting for room; later submits are refused
  encoder_->finish_after_error();
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.empty()) error_ = "recording stopped: " + message;
}

void Recorder::write_sidecar_now(bool complete) {
  RecordingSidecar copy;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sidecar_.width = encoder_->stored_width();
    sidecar_.height = encoder_->stored_height();
    sidecar_.dropped_frames = dropped_;
    sidecar_.clamped_pixels = encoder_->clamped_pixels();
    sidecar_.error = error_;
    sidecar_.complete = complete;
    copy = sidecar_;
  }
  try {
    write_sidecar(sidecar_path_for(settings_.encoder.path), copy);
  } catch (const std::exception& e) {
    // The sidecar failing is a recording failure too: without it the values cannot be decoded.
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.empty()) error_ = std::string("recording: ") + e.what();
  }
}

RecorderStatus Recorder::status() const {
  RecorderStatus s;
  s.sidecar_path = sidecar_path_for(settings_.encoder.path);
  s.dropped = dropped_;
  s.queued = static_cast<int64_t>(queue_.size());
  std::lock_guard<std::mutex> lock(mutex_);
  s.path = actual_file_.empty() ? settings_.encoder.path : actual_file_;
  s.accepting = !failed_ && !stopping_;
  s.finished = finished_;
  s.description = description_;
  s.frames_written = static_cast<int64_t>(sidecar_.frames.size());
  s.bytes_written = bytes_written_;
  s.error = error_;
  s.elapsed_s = finished_ ? final_elapsed_s_
                          : std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return s;
}

RecorderStatus Recorder::stop() {
  if (!stopping_.exchange(true)) {
    queue_.close();
    if (thread_.joinable()) thread_.join();
    // Frames still arriving between the close and the join were refused, not dropped.
    write_sidecar_now(true);
    std::lock_guard<std::mutex> lock(mutex_);
    final_elapsed_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    finished_ = true;
  }
  return status();
}

std::string format_byte_count(int64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  const char* units[] = {"kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes) / 1000.0;
  int unit = 0;
  while (value >= 1000.0 && unit < 3) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace sv
