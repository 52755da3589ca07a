#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "src/app/capture_thread.h"
#include "src/app/processing_thread.h"
#include "src/app/timing_history.h"
#include "src/core/stereo_params.h"
#include "src/core/synthetic_scene.h"
#include "src/core/disparity_histogram.h"
#include "src/core/region_statistics.h"
#include "ui/ab_comparison.h"
#include "ui/colour_range_tracker.h"
#include "ui/cost_curve.h"
#include "ui/cursor_readout.h"
#include "ui/engine_choice.h"
#include "ui/output_paths.h"
#include "ui/source_choice.h"
#include "ui/view_layout.h"
#include "ui/view_textures.h"
#include "ui/viewer_settings.h"

namespace sv {

// What the panels ask the app to do this frame; the app carries it out after the UI is built,
// so the panels never touch threads or GL objects themselves.
struct PanelRequests {
  bool params_changed = false;
  std::string engine;             // an engine kind to switch to (auto, cpu, cuda), or ""
  bool toggle_pause = false;
  bool step = false;
  bool snapshot = false;
  bool open_source = false;       // switch to ViewerState::source (source panel, script)
  bool reopen_source = false;     // the running source again, e.g. raw <-> rectified
  bool list_cameras = false;
  int64_t seek_to = -1;           // a frame of a file to jump to
  bool playback_changed = false;  // loop or pace switched
  bool toggle_fullscreen = false;
  bool dock_timings = false;      // View > Dock timings
  bool dock_recording = false;    // View > Dock the Recording window
  int cloud_preset = -1;          // a CloudViewPreset to put the 3D view's camera at
  bool toggle_cloud_recording = false;  // start or stop the 3D view's PLY per frame
  bool quit = false;
  AbRequests ab;
};

// The viewer's editable state, owned by the GL thread. `params` is the UI's copy of the
// parameters (shared/ARCHITECTURE.md): the processing thread gets a snapshot when it changes.
struct ViewerState {
  ViewerSettings settings;
  StereoParams params;
  EngineChoice engine;            // what the engine box shows: the kind running, a refusal
  bool paused = false;
  SyntheticSceneConfig scene;
  SourceChoice source;           // what the source panel edits
  SourceChoice active_source;    // what runs: the last source that opened
  std::string source_error;      // why the last switch failed; empty once one works
  std::deque<std::string> source_notices;  // the sources' notices, newest last
  std::string camera_list;       // the text of "List cameras"
  std::string calibration_summary;  // the running source's Q, empty without a calibration
  bool loop = false;             // files start again at their end
  bool realtime = true;          // files play at their own rate, else as fast as possible
  DepthCalibration manual_calibration;  // depth when neither a calibration nor the scene gives it
  bool scene_calibration = true;  // depth from the synthetic scene's own focal length and baseline
  std::string preset_path = "stereoview.preset";
  std::string snapshot_dir = kDefaultSnapshotDir;
  std::string cloud_record_dir = kDefaultCloudRecordDir;  // the 3D view's recording: a PLY per frame
  ViewTransform transform;
  CostCurveTarget cost_curve;  // the Cost curve window: open, and the pixel it follows
  AbSettings ab;                // the A/B comparison's B side and what the panel edits
  std::deque<std::string> log;  // newest last
  PanelRequests requests;

  // Also printed on stderr, so scripted runs leave a trace.
  void add_log(const std::string& line);
};

// Read-only facts the panels show.
struct ViewerStatus {
  CaptureStatus capture;
  ProcessingStatus processing;
  double display_fps = 0.0;
  int64_t frames_shown = 0;
  DisplayPath display_path = DisplayPath::HostUpload;  // the disparity's
  DisplayPath views_display_path = DisplayPath::HostUpload;
  std::string cloud_path = "host upload";  // how the 3D view's vertices are made
  std::string cloud_timing;  // the 3D view's times (CloudTimings::text) while one is on screen
  std::string cloud_recording;  // the 3D view's recording: "N written, M dropped", empty when off
  std::string gl_renderer;
  std::string gpu_memory;
  int image_width = 0;
  int image_height = 0;
  int64_t frame_index = -1;  // source index of the frame on screen
  int64_t source_frames = -1;  // the source's length; -1 when endless or unknown
  bool source_live = false;
  bool source_at_end = false;  // a file that ended and holds its last frame
  CursorReadout cursor;
  const TimingHistory* timings = nullptr;
  const Histogram* histogram = nullptr;  // of the disparity on screen; null before a frame
  DisparityRange colour_range;           // the disparities at the colormap's ends
  const RegionStatistics* region = nullptr;  // of ViewerSettings::region; null without one
  // Mean absolute frame-to-frame change of the disparity over pixels valid in both (flicker.h):
  // the latest, and its mean over the last kFlickerFrames frames; nullopt before two frames.
  std::optional<double> flicker, flicker_mean;
  bool timings_docked = true;
  bool recording_docked = true;
  // A/B: B's processing status and timings while it runs, and the newest pair both computed.
  std::optional<ProcessingStatus> processing_b;
  const TimingHistory* timings_b = nullptr;
  const AbMatch* ab_match = nullptr;
};

}  // namespace sv
