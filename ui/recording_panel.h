#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "src/app/capture_thread.h"
#include "src/app/processing_thread.h"
#include "src/core/colorize.h"
#include "src/core/synthetic_scene.h"
#include "src/io/stereo_calibration.h"
#include "ui/ab_comparison.h"

namespace sv {

class Recorder;

// What a recording started in the viewer is told about the running source, for its sidecar.
struct RecordingContext {
  std::string source;  // the capture thread's description
  double frames_per_second = 30.0;
  Colormap colormap = Colormap::Turbo;
  std::string calibration_file;
  std::optional<StereoGeometry> geometry;
  // Set while the A/B difference view is the view recorded (its scale, px): see add_difference.
  std::optional<float> difference_scale;
};

// The viewer's recording (issue 6): a "Recording" window (format, file, codec, record / stop,
// status), the R key's toggle, the red indicator over the views (elapsed time, frames, file
// size, dropped frames) and the Recorder fed with every new frame. Lives on the GL thread; the
// Recorder's own thread does the writing, so add_frame() never waits on the disk. A failed
// recording stops itself; its message goes to the log once and stays in the window.
class RecordingPanel {
 public:
  using Log = std::function<void(const std::string&)>;
  explicit RecordingPanel(Log log);
  ~RecordingPanel();  // stops a running recording, finishing its file
  RecordingPanel(const RecordingPanel&) = delete;
  RecordingPanel& operator=(const RecordingPanel&) = delete;

  void request_toggle() { request_ = Request::Toggle; }
  // A script's `record FORMAT [FILE]` / `record stop`; `format` is checked on update().
  void request_start(const std::string& format, const std::string& path);
  void request_stop() { request_ = Request::Stop; }
  bool recording() const;

  // After the UI is built: starts or stops as requested (a start takes the parameters and
  // engine of `frame`, the one on screen) and notices a recording that failed.
  void update(const ProcessedFrame* frame, const RecordingContext& context);
  // Each new frame on screen: queued for the recorder, or counted as dropped when it is behind.
  void add_frame(const ProcessedFrame& frame);
  // Each new A/B match while the difference view is the view recorded: the colour formats take
  // the view as shown (`colours`), lossless16 |A - B| in px where both sides are valid (0 where
  // at most one is), raw the pair; the sidecar says so ("view": "difference").
  void add_difference(const AbMatch& match, const ImageRgb8& colours);
  // The window (first shown collapsed at x, y) and, while recording, the indicator at
  // (indicator_x, indicator_y). Call inside an ImGui frame.
  void draw(float x, float y, float indicator_x, float indicator_y);

 private:
  void start(const ProcessedFrame& frame, const RecordingContext& context);
  void stop();

  Log log_;
  std::unique_ptr<Recorder> recorder_;
  enum class Request { None, Toggle, Start, Stop };
  Request request_ = Request::None;
  int format_index_ = 0;  // color, lossless16, raw, side-by-side
  char path_[512] = "";  // kDefaultRecordingDir at first
  char codec_[64] = "";
  std::string last_file_;
  std::string last_summary_;
  std::string error_;
  bool error_reported_ = false;
};

// The frame rate written into a viewer recording: the source's own rate (a file's, a camera's,
// the paced synthetic scene's), else the measured capture rate, else 30.
double recording_frame_rate(const CaptureStatus& capture);

// The depth geometry of what the viewer shows: the source's calibration (Q), else the
// synthetic scene's own cameras while it runs; nullopt otherwise.
std::optional<StereoGeometry> displayed_geometry(const std::optional<StereoGeometry>& source_geometry,
                                                 bool synthetic_running,
                                                 const SyntheticSceneConfig& scene);

}  // namespace sv
