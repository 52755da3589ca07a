#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "src/app/bounded_queue.h"
#include "src/core/stereo_params.h"
#include "src/io/disk_reserve.h"
#include "src/io/notice_sink.h"
#include "src/io/recording_encoder.h"
#include "src/io/recording_sidecar.h"
#include "src/io/stereo_calibration.h"

namespace sv {

struct RecorderSettings {
  RecordingEncoderSettings encoder;
  size_t queue_capacity = 8;  // frames waiting for the disk; more are dropped (and counted)
  // How often the sidecar is rewritten while recording, listing the frames committed so far, so
  // a process that is killed leaves a sidecar behind (less often once the sidecar is large: at
  // most about 1 MB of it a second).
  double sidecar_interval_s = 1.0;
  // For the sidecar.
  std::string source;
  std::string engine;
  StereoParams params;
  std::string calibration_file;
  std::optional<StereoGeometry> geometry;
  std::optional<float> difference_scale;  // the frames are the A/B difference view
};

struct RecorderStatus {
  bool accepting = false;  // running and not failed: submit() may queue frames
  bool finished = false;   // stop() has run; the file and sidecar are complete
  // The file written: the path asked for, except for raw recordings of 16-bit sources into a
  // container FFV1 does not fit (.mkv instead) and of float sources (the left PFM pattern), see
  // make_recording_encoder. The sidecar is always the asked-for path + ".json".
  std::string path;
  std::string sidecar_path;
  bool sidecar_written = false;  // after stop(): false when no recording came to exist
  std::string description;       // the encoder's, e.g. "libx264 in mp4, 640x480"
  double elapsed_s = 0.0;
  int64_t frames_written = 0;  // frames wholly in the file: what a decoder gets back
  int64_t bytes_written = 0;
  int64_t dropped = 0;  // frames refused because the queue was full
  int64_t queued = 0;
  std::string error;        // why recording stopped early; empty while all is well
  std::string stop_reason;  // after stop(): RecordingStop::text(), as in the sidecar
};

// Writes recording frames on its own thread (shared/ARCHITECTURE.md: the recorder thread owns
// the encoder), so the frame loop never waits on the disk. submit() queues a frame or, when the
// bounded queue is full, drops it and counts it.
//
// A write error (disk full, a file size limit, permission denied, a codec refusing a frame)
// stops the recording: the file is cut back to its last whole frame, so it stays playable and
// holds exactly the frames the sidecar lists; status().error says why and later frames are
// refused. So that the final sidecar can still be written on a full disk, room for it is kept
// in FILE.json.reserve (DiskReserve), grown ahead of need; when the disk cannot give that room,
// the recording stops there, early and cleanly. The sidecar (FILE.json) is written after the
// first frame, rewritten every sidecar_interval_s while recording, and finally by stop(), which
// records how the recording ended. A recording that never came to exist (it failed before its
// first frame reached the disk) leaves no sidecar.
class Recorder {
 public:
  // Checks the destination and creates the encoder (check_recording_destination: RuntimeError
  // for a codec this build lacks, an unwritable folder, ...) and starts the thread. `notices`
  // hears about codec fallbacks, on the caller's thread.
  explicit Recorder(RecorderSettings settings, NoticeSink notices = {});
  ~Recorder();  // stop()
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Never waits. False when the frame was not queued: the queue was full (counted in dropped),
  // or the recording has stopped. Meant for one producer thread (the frame loop).
  bool submit(RecordingFrame frame);
  // Waits for room instead of dropping (batch runs over files, which must lose no frame). False
  // once the recording has stopped.
  bool submit_waiting(RecordingFrame frame);

  // The depth geometry for the sidecar, when it is known only once frames arrive (their size
  // fits the calibration to them); call before the first submit.
  void set_geometry(std::optional<StereoGeometry> geometry);

  RecorderStatus status() const;
  // Ends the recording: writes what is queued, finishes the file and the final sidecar, which
  // says `why` (or the recording's own error when it failed), joins the thread. Returns the
  // final status; calling it again returns the same.
  RecorderStatus stop(RecordingStop why = {});

 private:
  // What the sidecar needs of a frame until the encoder has it wholly on disk.
  struct PendingFrame {
    int64_t index = 0;
    double timestamp_s = 0.0;
    std::optional<StereoParams> params;
    std::string engine;
  };

  void run();
  void write_one(const RecordingFrame& frame);
  void commit_frames();
  void fail(const std::string& message);
  bool keep_room_for_sidecar();
  // The sidecar as it stands, its counters brought up to date (and its stop set, when given).
  RecordingSidecar current_sidecar(const RecordingStop* stop = nullptr);
  void write_running_sidecar();
  void write_final_sidecar(const RecordingStop& stop);

  RecorderSettings settings_;
  std::unique_ptr<RecordingEncoder> encoder_;  // used only on the recorder thread after start
  BoundedQueue<RecordingFrame> queue_;
  std::thread thread_;
  const std::chrono::steady_clock::time_point started_;
  std::atomic<bool> failed_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> dropped_{0};

  // The recorder thread's own (then stop()'s, after the join).
  std::deque<PendingFrame> pending_;
  DiskReserve reserve_;
  int64_t sidecar_bytes_estimate_ = 0;  // of the final sidecar with the frames so far
  std::chrono::steady_clock::time_point last_sidecar_write_;
  double sidecar_interval_s_ = 0.0;  // until the next rewrite, grown with the sidecar's size
  StereoParams last_params_;  // of the last committed frame
  std::string last_engine_;

  mutable std::mutex mutex_;  // guards the fields below
  RecordingSidecar sidecar_;
  int64_t bytes_written_ = 0;
  std::string description_;
  std::string actual_file_;  // the encoder's file() once the first frame is written, if it has one
  std::string error_;
  bool finished_ = false;
  bool sidecar_written_ = false;
  std::string stop_reason_;
  double final_elapsed_s_ = 0.0;
};

// "812 B", "12.7 kB", "3.4 MB", "1.2 GB": file sizes for status lines.
std::string format_byte_count(int64_t bytes);

}  // namespace sv
