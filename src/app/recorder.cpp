#include "src/app/recorder.h"

#include <algorithm>
#include <cstdio>

#include "src/core/colorize.h"
#include "src/core/error.h"
#include "src/io/atomic_file.h"

namespace sv {
namespace {

// Sizes for keeping room for the sidecar (bytes). A frame's entry in the JSON takes about 120
// bytes; the fixed part gets room for what is learnt later (the file name, an error message).
constexpr int64_t kFrameEntryBytes = 160;
constexpr int64_t kSidecarMargin = 4096;
constexpr int64_t kDiskBlock = 4096;
constexpr int64_t kReserveStep = 16 * 1024;
// A long recording's sidecar is megabytes: it is rewritten less often then, at most about this
// many bytes a second.
constexpr double kSidecarBytesPerSecond = 1e6;

int64_t round_up_to_block(int64_t bytes) {
  return (bytes + kDiskBlock - 1) / kDiskBlock * kDiskBlock;
}

// A parameter change's share of the sidecar, generously (it is indented deeper in the file).
int64_t change_bytes(const RecordingSidecar::ParameterChange& change) {
  int64_t bytes = 160 + static_cast<int64_t>(change.engine.size());
  for (const auto& [key, value] : change.values)
    bytes += 16 + 2 * static_cast<int64_t>(key.size() + value.size());
  return bytes;
}

}  // namespace

Recorder::Recorder(RecorderSettings settings, NoticeSink notices)
    : settings_(std::move(settings)),
      queue_(settings_.queue_capacity, QueueFullPolicy::Block),
      started_(std::chrono::steady_clock::now()),
      reserve_(sidecar_path_for(settings_.encoder.path) + ".reserve") {
  encoder_ = make_recording_encoder(settings_.encoder, std::move(notices));
  // A recording killed outright (SIGKILL) to this path left these two behind; this recording
  // makes both anew. (Two runs recording to one path at once would ruin each other's file
  // anyway.)
  const std::string sidecar = sidecar_path_for(settings_.encoder.path);
  std::remove(atomic_write_temp_path(sidecar).c_str());
  std::remove(reserve_.path().c_str());
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
  s.difference_scale = settings_.difference_scale;
  sidecar_bytes_estimate_ = static_cast<int64_t>(sidecar_json(s).size()) + kSidecarMargin;
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
      commit_frames();
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_written_ = encoder_->bytes_written();
}

void Recorder::write_one(const RecordingFrame& frame) {
  pending_.push_back({frame.index, frame.timestamp_s, frame.params, frame.engine});
  if (!keep_room_for_sidecar()) {
    fail(reserve_.error());
    return;
  }
  try {
    encoder_->write(frame);
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  const bool first = sidecar_.frames.empty();  // only this thread changes the frame list
  commit_frames();
  const auto now = std::chrono::steady_clock::now();
  if (first ||
      std::chrono::duration<double>(now - last_sidecar_write_).count() >= sidecar_interval_s_) {
    write_running_sidecar();
  }
}

// Moves the frames the encoder has wholly on disk from pending_ into the sidecar, noting where
// the parameters or the engine changed.
void Recorder::commit_frames() {
  const int64_t committed = encoder_->frames_committed();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!encoder_->has_file()) return;
  if (description_.empty()) {
    // A raw recording learns its sample depth, codec and file from the first frame.
    description_ = encoder_->describe();
    if (!encoder_->file().empty()) actual_file_ = sidecar_.file = encoder_->file();
    sidecar_.codec = encoder_->codec();
    sidecar_.sample_depth = encoder_->sample_depth();
    sidecar_.replay = encoder_->replay_flags();
  }
  bytes_written_ = encoder_->bytes_written();
  while (static_cast<int64_t>(sidecar_.frames.size()) < committed && !pending_.empty()) {
    PendingFrame frame = std::move(pending_.front());
    pending_.pop_front();
    const int64_t file_index = static_cast<int64_t>(sidecar_.frames.size());
    sidecar_.frames.push_back({frame.index, frame.timestamp_s});
    if (file_index == 0) {
      // The header describes the first frame, whatever was set when the recording started.
      if (frame.params) sidecar_.params = *frame.params;
      if (!frame.engine.empty()) sidecar_.engine = frame.engine;
      last_params_ = sidecar_.params;
      last_engine_ = sidecar_.engine;
      continue;
    }
    RecordingSidecar::ParameterChange change;
    change.file_index = file_index;
    change.source_index = frame.index;
    if (frame.params) change.values = changed_parameters(last_params_, *frame.params);
    if (!frame.engine.empty() && frame.engine != last_engine_) change.engine = frame.engine;
    if (frame.params) last_params_ = *frame.params;
    if (!frame.engine.empty()) last_engine_ = frame.engine;
    if (change.values.empty() && change.engine.empty()) continue;
    sidecar_bytes_estimate_ += change_bytes(change);
    sidecar_.parameter_changes.push_back(std::move(change));
  }
}

void Recorder::fail(const std::string& message) {
  failed_ = true;
  queue_.close();  // wakes a producer waiting for room; later submits are refused
  encoder_->finish_after_error();
  commit_frames();
  pending_.clear();  // frames the failure kept from the disk
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.empty()) error_ = "recording stopped: " + message;
}

// Grows the reserve to hold the final sidecar of every frame so far and the one being written.
bool Recorder::keep_room_for_sidecar() {
  const int64_t frames = static_cast<int64_t>(sidecar_.frames.size() + pending_.size());
  const int64_t need = round_up_to_block(sidecar_bytes_estimate_ + frames * kFrameEntryBytes);
  if (reserve_.size() >= need) return true;
  return reserve_.grow_to(std::max(2 * need, need + kReserveStep)) || reserve_.grow_to(need);
}

RecordingSidecar Recorder::current_sidecar(const RecordingStop* stop) {
  std::lock_guard<std::mutex> lock(mutex_);
  sidecar_.width = encoder_->stored_width();
  sidecar_.height = encoder_->stored_height();
  sidecar_.dropped_frames = dropped_;
  sidecar_.clamped_pixels = encoder_->clamped_pixels();
  if (stop) sidecar_.stop = *stop;
  return sidecar_;
}

void Recorder::write_running_sidecar() {
  const std::string text = sidecar_json(current_sidecar());
  // The new file is written beside the old one before it replaces it: its room comes out of the
  // reserve, which is grown back afterwards.
  reserve_.shrink_to(reserve_.size() - round_up_to_block(static_cast<int64_t>(text.size())) -
                     kDiskBlock);
  last_sidecar_write_ = std::chrono::steady_clock::now();
  sidecar_interval_s_ = std::max(settings_.sidecar_interval_s,
                                 static_cast<double>(text.size()) / kSidecarBytesPerSecond);
  try {
    write_file_atomically(sidecar_path_for(settings_.encoder.path), text);
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sidecar_written_ = true;
  }
  if (!keep_room_for_sidecar()) fail(reserve_.error());
}

void Recorder::write_final_sidecar(const RecordingStop& stop) {
  if (!encoder_->has_file()) {
    reserve_.remove();  // nothing was recorded: no sidecar may claim otherwise
    return;
  }
  const RecordingSidecar copy = current_sidecar(&stop);
  reserve_.remove();  // the room kept for this very write
  try {
    write_sidecar(sidecar_path_for(settings_.encoder.path), copy);
    std::lock_guard<std::mutex> lock(mutex_);
    sidecar_written_ = true;
  } catch (const std::exception& e) {
    // The sidecar failing is a recording failure too: without it the values cannot be decoded.
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.empty()) error_ = std::string("recording: ") + e.what();
  }
}

void Recorder::set_geometry(std::optional<StereoGeometry> geometry) {
  std::lock_guard<std::mutex> lock(mutex_);
  sidecar_.geometry = std::move(geometry);
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
  s.sidecar_written = sidecar_written_;
  s.description = description_;
  s.frames_written = static_cast<int64_t>(sidecar_.frames.size());
  s.bytes_written = bytes_written_;
  s.error = error_;
  s.stop_reason = stop_reason_;
  s.elapsed_s =
      finished_
          ? final_elapsed_s_
          : std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return s;
}

RecorderStatus Recorder::stop(RecordingStop why) {
  if (!stopping_.exchange(true)) {
    queue_.close();
    if (thread_.joinable()) thread_.join();
    // Frames still arriving between the close and the join were refused, not dropped.
    std::string error;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      error = error_;
    }
    const RecordingStop ending =
        error.empty() ? why : RecordingStop{RecordingStop::Reason::RecordingError, 0, error};
    write_final_sidecar(ending);
    std::lock_guard<std::mutex> lock(mutex_);
    stop_reason_ = ending.text();
    final_elapsed_s_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
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
