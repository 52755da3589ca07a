#include "ui/viewer_app.h"

// The GL thread's frame loop, in the order of Dear ImGui's GLFW + OpenGL3 example: poll events,
// collect the newest result (never waiting for the engine), play the script, build the panels,
// draw the views and the UI, swap. Everything GL lives on this thread.

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "src/app/engine_factory.h"
#include "src/app/notice_collector.h"
#include "src/app/param_script.h"
#include "src/app/source_factory.h"
#include "src/app/stop_signals.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/disparity_difference.h"
#include "src/core/flicker.h"
#include "src/core/param_table.h"
#include "src/io/calibration_writer.h"
#include "src/io/png_io.h"
#include "src/io/point_cloud_ply.h"
#include "ui/calibrate_window.h"
#include "ui/cloud_recorder.h"
#include "ui/cloud_view.h"
#include "ui/colour_bar.h"
#include "ui/control_panel.h"
#include "ui/cost_curve_window.h"
#include "ui/histogram_widget.h"
#include "ui/leak_report_support.h"
#include "ui/frame_layout.h"
#include "ui/frame_pipeline.h"
#include "ui/gpu_memory.h"
#include "src/core/output_folders.h"
#include "ui/recording_panel.h"
#include "ui/region_probe.h"
#include "ui/script_run.h"
#include "ui/shader_program.h"
#include "ui/snapshot.h"
#include "ui/source_truth.h"
#include "ui/timings_panel.h"
#include "ui/view_renderer.h"
#include "ui/window_dock.h"
#ifdef STEREOVIEW_HAS_CUDA_GL
#include "cuda/device_disparity.h"
#include "cuda/device_views.h"
#include "cuda/gl_interop.h"
#include "cuda/interop_disparity_view.h"
#include "cuda/interop_views.h"
#endif

namespace sv {

void ViewerState::add_log(const std::string& line) {
  std::cerr << line << "\n";
  log.push_back(line);
  while (log.size() > 12) log.pop_front();
}

namespace {

using Clock = std::chrono::steady_clock;

// How long a scripted screenshot waits for B to reach the frame on screen (A/B).
constexpr double kMaxAbWaitS = 10.0;

// Results a seek skips at most while it waits for its frame (the pairs in flight, ViewerApp).
constexpr int kMaxSkippedAfterSeek = 6;

// The A/B legend's box (draw_ab_legend).
constexpr ImU32 kLegendBackdrop = IM_COL32(16, 16, 16, 230);
constexpr ImU32 kLegendBorder = IM_COL32(128, 128, 128, 255);

// Frames the flicker's mean spans in the Timings window.
constexpr size_t kFlickerFrames = 30;

double seconds_now() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// The display is capped at this rate so an idle window (Xvfb has no vsync) leaves the CPU to
// the engine.
constexpr double kMaxDisplayFps = 60.0;

class ViewerApp {
 public:
  explicit ViewerApp(const ViewerOptions& options);
  ~ViewerApp();
  int run();

 private:
  void open_window();
  // Opens `choice` and, when that works, replaces the pipeline with one running it (at frame
  // `seek_to` of a file, if >= 0); otherwise logs why and keeps the running one.
  bool switch_source(const SourceChoice& choice, int64_t seek_to = -1);
  // Replaces the pipeline with one running `opened`; throws what the engine factory throws.
  void start_pipeline(const SourceChoice& choice, OpenedSource opened, int64_t seek_to = -1);
  void seek(int64_t index);
  // No frame will come unless something changes: the source ended or holds at its end, every
  // pair it delivered was shown, the frame on screen has the latest parameters and no engine
  // switch is in flight.
  bool no_frame_coming() const;
  // Reports the script events that never ran; false when that fails a scripted run.
  bool report_unrun_script_events();
  void draw_docked_windows(const FrameLayout& layout, const ViewerStatus& status);
  void print_window_placement(float sx, float sy) const;
  void draw_epipolar_lines(const FrameLayout& layout);
  void collect_results();
  // A/B (ab_comparison.h): B's thread on the running pipeline's pairs (the pair on screen
  // first), its results, its colours, and the panel's and script's requests for it.
  // `from_shown_pair`: B starts on the pair on screen (A/B switched on during a run).
  void start_b(bool from_shown_pair, bool paused);
  void settle_b_for_screenshot();
  void collect_b();
  void refresh_b_colours();
  void apply_ab_requests(const AbRequests& requests);
  void apply_ab_script(const ScriptEvent& event);
  bool ab_settled() const;
  // The frame on screen shows every change asked for: parameters, the Cost curve's pixel, B.
  bool shows_what_was_asked() const;
  // Closing (Q, Esc, the window's close button, a script's quit) without --frames takes the
  // --screenshot first, once the frame shows what was asked (at most kMaxAbWaitS later); true
  // while that wait goes on.
  bool screenshot_on_close(const FrameLayout& layout);
  void log_input();  // --log-input
  // What a recording takes: the first disparity view on screen decides (A's, B's, the difference).
  enum class RecordedView { A, B, Difference };
  RecordedView recorded_view() const;
  SourceTruth source_truth() const;  // the running source's ground truth, if it has one
  void show_views(const ProcessedFrame& frame);
  void play_script(double seconds);
  void apply_script_event(const ScriptEvent& event);
  void refresh_disparity_colours();
  FrameLayout compute_layout(float menu_height);
  void handle_keys();
  // Asks the processing thread for the Cost curve's pixel when it changed (or always: `force`).
  void update_result_parts(bool force);
  void handle_mouse(const FrameLayout& layout);
  void draw_view_overlays(const FrameLayout& layout);
  void draw_region_outline(const FrameLayout& layout);
  void draw_ab_legend(ImDrawList* draw, const Rect& cell, ViewKind kind);
  // A right-button drag on a view sets ViewerSettings::region (image pixels).
  void select_region(float image_x, float image_y);
  // The colour range and histogram, the region statistics and the flicker of the frame shown.
  void update_frame_statistics();
  void measure_flicker();
  void refresh_confidence_view(size_t shown_views);
  void refresh_cloud(size_t shown_views);
  bool cloud_on_screen() const;  // a 3D view in one of the layout's cells
  void write_cloud_snapshot();
  void start_cloud_recording(const std::string& folder);
  void stop_cloud_recording();
  void record_cloud();
  CloudInputs cloud_inputs() const;
  void apply_requests();
  void render_views(const FrameLayout& layout);
  bool screenshot_due() const;
  // The windows the layout sizes by their content were drawn at that size.
  bool layout_settled() const;
  bool write_screenshot(const FrameLayout& layout);
  ViewerStatus make_status() const;
  void update_calibration();
  // The Calibrate window (C): its requests, the session's news, a script's "calibrate" command.
  void run_calibrate_window();
  void calibrate_command(const std::string& command);
  // The Cost curve window in the side column; where it is (empty while closed).
  Rect draw_cost_curve(const FrameLayout& layout);
  bool save_calibration();
  bool apply_calibration();
  // A scripted calibration still to finish: its run, its detections of a file's last pairs, its
  // apply. The run ends after them (a failure of one fails the run: script_failed).
  bool scripted_calibration_pending() const;
  // Image pairs and sequences: every pair reaches the Calibrate window's detector, not only
  // those shown (the display takes the newest result), through a queue on the pipeline's
  // fan-out that holds the file back while the detector is busy.
  bool source_pairs_are_stills() const;
  void attach_calibration_pairs();
  void feed_calibration();
  void script_failed(const std::string& reason);

  const ViewerOptions options_;
  ViewerState state_;
  GLFWwindow* window_ = nullptr;
  bool imgui_ready_ = false;
  std::unique_ptr<ViewTextures> textures_;
  std::unique_ptr<ViewRenderer> renderer_;
  std::unique_ptr<CloudView> cloud_view_;  // the 3D view
  std::unique_ptr<CloudRecorder> cloud_recorder_;  // its recording, a PLY per frame
  int64_t cloud_recorded_sequence_ = -1;
  bool cloud_error_logged_ = false;
  std::string cloud_error_;  // the 3D view's last failure, logged once
  std::unique_ptr<FramePipeline> pipeline_;
  NoticeCollector notices_;                // the sources' notices, from the capture thread
  std::optional<StereoGeometry> geometry_;  // the running source's calibration Q
  SourceTruth dataset_truth_;               // the running dataset's ground truth, if it is one
  int64_t pipeline_frames_ = 0;            // frames shown from the running pipeline
  // After a seek, results of pairs read before it are skipped until the target shows (a few at
  // most: the one the capture thread holds, the queue's, the fan-out's, the engine queue's and
  // the one being computed: kMaxSkippedAfterSeek).
  int64_t awaiting_index_ = -1;
  int awaiting_skipped_ = 0;
  ScriptRun script_;
  TimingHistory timings_;
  RateMeter display_rate_;
  std::string gl_renderer_;
  float ui_scale_ = 1.0f;

  std::optional<ProcessedFrame> frame_;  // the frame on screen
  ImageRgb8 colorized_;                  // its disparity as shown (host path; see colorized())
  bool colorized_stale_ = false;         // the interop path drew it; colorized_ is older
  // CUDA-GL interop for the disparity view: chosen once the window's context exists, when the GL
  // runs on the CUDA device; otherwise (Xvfb, another GPU, no CUDA) the host upload.
  bool interop_ = false;
  std::string interop_reason_ = "this build has no CUDA-GL interop";
#ifdef STEREOVIEW_HAS_CUDA_GL
  std::unique_ptr<cuda::InteropDisparityView> interop_view_;
  // The left and right views, when the CUDA engine rectified them and left them on the GPU.
  std::unique_ptr<cuda::InteropViews> interop_views_;
#endif
  const ImageRgb8& colorized();
  struct ColourKey {
    Colormap map;
    DisparityRange range;
    int64_t sequence;
    bool operator==(const ColourKey& o) const {
      return map == o.map && range.lo == o.range.lo && range.hi == o.range.hi &&
             sequence == o.sequence;
    }
  };
  std::optional<ColourKey> colour_key_;
  AbComparison ab_;
  uint64_t latest_generation_b_ = 0;  // set_params() calls made to B's thread
  // What the B and difference textures show: the match, the colours and the texture storage.
  struct AbColourKey {
    uint64_t match_version;
    Colormap map;
    DisparityRange range;
    float difference_scale;
    uint64_t storage;
    bool operator==(const AbColourKey& o) const {
      return match_version == o.match_version && map == o.map && range.lo == o.range.lo &&
             range.hi == o.range.hi && difference_scale == o.difference_scale && storage == o.storage;
    }
  };
  std::optional<AbColourKey> ab_colour_key_;
  ImageRgb8 colorized_b_;            // B's disparity as shown
  ImageRgb8 difference_colours_;     // the difference view as shown
  double ab_wait_since_s_ = -1.0;    // when the screenshot began to wait for B; -1: not waiting
  int64_t b_settling_sequence_ = -1;  // the frame B was started again on for the screenshot
  double closing_since_s_ = -1.0;    // when closing began to wait for the --screenshot's frame
  std::string last_input_line_;      // --log-input's, printed again only when it changes
  ColourRangeTracker colour_range_;
  RegionProbe region_;
  FlickerMeter flicker_meter_;
  std::deque<double> flicker_history_;  // newest last, at most kFlickerFrames
  bool selecting_ = false;              // a right-button drag is drawing the region
  size_t select_cell_ = 0;               // the view it started in
  float select_from_x_ = 0.0f, select_from_y_ = 0.0f;  // where it started, image pixels
  int64_t confidence_sequence_ = -1;  // the frame whose confidence the texture holds
  bool cloud_path_logged_ = false;
  int64_t frames_shown_ = 0;
  uint64_t latest_generation_ = 0;
  int64_t gl_frames_ = 0;
  bool quit_ = false;
  bool dragging_ = false;
  bool mouse_moved_ = false;
  int exit_code_ = 0;
  CursorReadout cursor_;
  std::optional<ProbePixel> requested_probe_;  // the pixel the results carry the costs of
  Rect cost_curve_rect_;  // the Cost curve window this frame; empty while closed
  Rect ab_legend_rect_;   // the A/B legend's box this frame; empty when none is drawn
  // Saved window placement while fullscreen.
  int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0;
  // Recording (R key, its window); after state_, whose log it writes.
  RecordingPanel recording_{[this](const std::string& line) { state_.add_log(line); }};
  WindowDock recording_dock_{"Recording"};
  // The windows that explain the views, docked in the side column beside them (FrameLayout).
  WindowDock calibrate_dock_{"Calibrate"};
  WindowDock cost_curve_dock_{"Cost curve"};
  TimingsWindow timings_window_;
  FrameLayout layout_;  // this frame's
  CalibrationSession calibration_;
  CalibrateWindowState calibrate_ui_;
  bool scripted_calibration_run_ = false;  // a script's "calibrate run" whose result is to come
  // Stills: a script's "calibrate run" waits until the detector has looked at every pair.
  bool run_when_all_looked_at_ = false;
  std::shared_ptr<PairQueue> calibration_pairs_;  // attach_calibration_pairs()
  float timings_height_used_ = 0.0f;  // the Timings height this frame's layout gave
  std::optional<StereoGeometry> shown_geometry() const {
    return displayed_geometry(geometry_, state_.active_source.kind == SourceKind::Synthetic, state_.scene);
  }
};

ViewerApp::ViewerApp(const ViewerOptions& options) : options_(options) {
  state_.settings = options.settings;
  state_.params = options.params;
  state_.engine = EngineChoice(options.engine);
  state_.scene.width = options.scene_width;
  state_.scene.height = options.scene_height;
  state_.scene.max_disparity =
      options.scene_disparity > 0 ? options.scene_disparity : options.params.num_disparities;
  state_.scene.seed = options.seed;
  state_.scene_calibration = !options.settings.calibration.known();
  state_.manual_calibration = options.settings.calibration;
  state_.source = source_choice_from_cli(options.source);
  state_.loop = options.source.loop;
  state_.realtime = !options.fast;
  state_.ab.enabled = options.compare;
  state_.ab.params = options.compare ? options.compare_params : options.params;
  state_.ab.engine = EngineChoice(options.compare_engine.empty() ? options.engine : options.compare_engine);
  script_ = ScriptRun(options.script);
  state_.cost_curve.set_open(options.cost_curve);
  if (options.cost_curve_pin) state_.cost_curve.pin(*options.cost_curve_pin);
}

ViewerApp::~ViewerApp() {
  ab_.stop();  // B's thread before the fan-out that feeds it
  pipeline_.reset();  // threads first: they hold no GL objects, but the log goes to state_
  stop_cloud_recording();  // its queued clouds are written
#ifdef STEREOVIEW_HAS_CUDA_GL
  interop_views_.reset();  // unregistered while the textures and the context exist
  interop_view_.reset();
#endif
  cloud_view_.reset();
  renderer_.reset();
  textures_.reset();
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void ViewerApp::open_window() {
  glfwSetErrorCallback([](int code, const char* text) {
    std::cerr << "GLFW error " << code << ": " << text << "\n";
  });
  if (!glfwInit()) {
    throw RuntimeError("cannot start GLFW (no display? set DISPLAY or run under Xvfb)");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // high-DPI: the window grows with the scale
  window_ = glfwCreateWindow(options_.window_width, options_.window_height, "stereoview", nullptr,
                             nullptr);
  if (!window_) throw RuntimeError("cannot open a window with an OpenGL 3.3 core context");
  glfwMakeContextCurrent(window_);
  if (gladLoadGL(glfwGetProcAddress) == 0) throw RuntimeError("cannot load OpenGL 3.3 functions");
  keep_loaded_libraries_until_exit();  // the GL driver is loaded now
  glfwSwapInterval(1);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  gl_renderer_ = renderer ? renderer : "unknown";

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed each frame; nothing to remember
  // A docked window floats when dragged (window_dock.h): by its title only, never by accident.
  io.ConfigWindowsMoveFromTitleBarOnly = true;
  ImGui::StyleColorsDark();
  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(window_, &scale_x, &scale_y);
  ui_scale_ = std::max(1.0f, std::max(scale_x, scale_y));
  ImGui::GetStyle().ScaleAllSizes(ui_scale_);
  io.FontGlobalScale = ui_scale_;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;

  const std::string shader_dir = find_shader_dir(options_.shader_dir);
  renderer_ = std::make_unique<ViewRenderer>(shader_dir);
  textures_ = std::make_unique<ViewTextures>();
#ifdef STEREOVIEW_HAS_CUDA_GL
  try {
    interop_ = cuda::current_gl_context_is_on_cuda_device(&interop_reason_);
    if (interop_) {
      interop_view_ = std::make_unique<cuda::InteropDisparityView>();
      interop_views_ = std::make_unique<cuda::InteropViews>();
    }
  } catch (const std::exception& e) {
    interop_ = false;
    interop_reason_ = e.what();
  }
#endif
  state_.add_log(std::string("CUDA-GL interop: ") + (interop_ ? "on" : "off") + " (" +
                 interop_reason_ + ")");
  cloud_view_ = std::make_unique<CloudView>(shader_dir, interop_,
                                            [this](const std::string& line) { state_.add_log(line); });
  if (!options_.record_cloud_dir.empty()) start_cloud_recording(options_.record_cloud_dir);
}

bool ViewerApp::switch_source(const SourceChoice& choice, int64_t seek_to) {
  try {
    start_pipeline(choice, open_source(choice, state_.scene, notices_.sink()), seek_to);
  } catch (const std::exception& e) {
    state_.source_error = e.what();
    state_.add_log(std::string("error: source: ") + e.what() +
                   (pipeline_ ? " (staying on the running source)" : ""));
    return false;
  }
  return true;
}

void ViewerApp::start_pipeline(const SourceChoice& choice, OpenedSource opened, int64_t seek_to) {
  if (seek_to > 0 && !opened.source->is_live() && opened.source->seek(seek_to)) {
    opened.first.reset();  // the pair read to check the source is not the one wanted
  }
  dataset_truth_ = SourceTruth::of_source(*opened.source);  // before the pipeline takes it
  auto pipeline = std::make_unique<FramePipeline>(std::move(opened.source), std::move(opened.first),
                                                  state_.loop, state_.realtime, notices_.sink(),
                                                  state_.engine.kind(), state_.params, interop_);
  ab_.stop();  // B's thread goes with the pipeline whose fan-out feeds it
  pipeline_ = std::move(pipeline);  // the old pipeline's threads stop here
  update_result_parts(/*force=*/true);
  pipeline_->processing().set_paused(state_.paused);
  if (state_.paused) pipeline_->processing().step();  // show the new source's first frame
  // A switch still in flight goes to the new processing thread.
  if (!state_.engine.pending().empty()) pipeline_->processing().request_engine(state_.engine.pending());
  state_.active_source = choice;
  calibration_.set_stills(source_pairs_are_stills());
  calibration_pairs_.reset();  // closed with the old pipeline's fan-out
  if (calibrate_ui_.open) attach_calibration_pairs();
  if (state_.ab.enabled) start_b(false, state_.paused);  // attached before the first pair goes by, as A
  pipeline_->start();
  state_.source_error.clear();
  state_.source_notices.clear();
  geometry_ = opened.geometry;
  state_.calibration_summary = opened.calibration_summary;
  latest_generation_ = 0;
  colour_key_.reset();  // result sequences start again at 1
  confidence_sequence_ = -1;
  pipeline_frames_ = 0;
  awaiting_index_ = -1;
  timings_.clear();
  update_calibration();
  if (cloud_view_) cloud_view_->fit_on_next_frame();  // another scene, other depths
  state_.add_log("source: " + pipeline_->capture().status().source);
  if (!opened.calibration_summary.empty()) {
    state_.add_log("depth from the calibration: " + opened.calibration_summary);
  }
}

void ViewerApp::seek(int64_t index) {
  if (pipeline_->is_live() || pipeline_->frame_count() <= 0) return;
  index = std::max<int64_t>(0, std::min(index, pipeline_->frame_count() - 1));
  pipeline_->playback().request_seek(index);
  awaiting_index_ = index;
  awaiting_skipped_ = 0;
  if (state_.paused) pipeline_->processing().step();
  if (state_.paused && ab_.running()) ab_.processing()->step();
}

bool ViewerApp::no_frame_coming() const {
  if (!frame_ || pipeline_frames_ == 0 || awaiting_index_ >= 0) return false;
  if (frame_->params_generation < latest_generation_ || !state_.engine.pending().empty()) return false;
  const ProcessingStatus processing = pipeline_->processing().status();
  if (processing.input_ended) return frame_->sequence == processing.processed;
  // A file (or a still pair) holding at its end: done once every pair it delivered was computed
  // and collected.
  return pipeline_->playback().at_end() &&
         processing.processed >= pipeline_->capture().status().delivered &&
         frame_->sequence == processing.processed;
}

void ViewerApp::update_calibration() {
  DepthCalibration& depth = state_.settings.calibration;
  if (geometry_) {
    depth.focal_px = geometry_->focal_length_px;
    depth.baseline_m = geometry_->baseline;
  } else if (state_.active_source.kind == SourceKind::Synthetic && state_.scene_calibration) {
    // The synthetic cameras (synthetic_scene.cpp): f = 0.9 width px, B = max_disparity / f.
    const double focal = 0.9 * state_.scene.width;
    depth.focal_px = focal;
    depth.baseline_m = state_.scene.max_disparity / focal;
  } else {
    depth = state_.manual_calibration;
  }
}

void ViewerApp::run_calibrate_window() {
  if (calibrate_ui_.start) {
    calibrate_ui_.start = false;
    try {
      calibration_.start(calibrate_settings(calibrate_ui_));
      calibrate_ui_.message.clear();
      // Views to calibrate from are raw: a source rectified with a calibration goes back to raw.
      if (state_.active_source.rectify && !state_.active_source.options.calib_path.empty()) {
        SourceChoice raw = state_.active_source;
        raw.rectify = false;
        if (switch_source(raw, frame_ ? frame_->pair.index : -1)) state_.source = raw;
      }
      // Every still from the first: none goes by unseen.
      if (source_pairs_are_stills()) {
        if (!calibration_pairs_) attach_calibration_pairs();
        seek(0);
      }
      // Both raw views side by side, where the corners are drawn.
      state_.settings.layout = 2;
      state_.settings.views[0] = ViewKind::Left;
      state_.settings.views[1] = ViewKind::Right;
      state_.add_log(std::string("calibrate: looking for a ") + calibrate_ui_.board + " board");
    } catch (const std::exception& e) {
      calibrate_ui_.message = e.what();
      state_.add_log(std::string("error: calibrate: ") + e.what());
    }
  }
  for (const std::string& line : calibration_.update()) state_.add_log(line);
  if (run_when_all_looked_at_) {
    const bool all = static_cast<int64_t>(calibration_.pairs_looked_at()) >= pipeline_->frame_count();
    // A file whose last pairs cannot come (a seek elsewhere, a pair that failed) runs on what came.
    const bool none_coming = no_frame_coming() && !calibration_.detecting() && calibration_pairs_ &&
                             calibration_pairs_->size() == 0;
    if (all || none_coming || !calibration_pairs_) {
      run_when_all_looked_at_ = false;
      calibration_.run_calibration();  // false: one runs already, whose result the script takes
    }
  }
  if (scripted_calibration_run_ && !run_when_all_looked_at_ && !calibration_.calibrating()) {
    scripted_calibration_run_ = false;
    if (!calibration_.result()) script_failed("calibrate run failed: " + calibration_.error());
  }
  if (calibrate_ui_.open) {
    calibrate_dock_.place({layout_.side.x, layout_.side.y, 0.0f, 0.0f});  // its own size
    draw_calibrate_window(calibrate_ui_, calibration_, layout_.side);
  } else {
    calibrate_dock_.dock();  // opened again, in its place
  }
  if (calibrate_ui_.save) {
    calibrate_ui_.save = false;
    save_calibration();
  }
  bool scripted_apply = false;
  if (calibrate_ui_.apply_when_done && !calibration_.calibrating() && !scripted_calibration_run_) {
    calibrate_ui_.apply_when_done = false;
    calibrate_ui_.apply = true;
    scripted_apply = true;
  }
  if (calibrate_ui_.apply) {
    calibrate_ui_.apply = false;
    if (!apply_calibration() && scripted_apply) script_failed("calibrate apply failed: " + calibrate_ui_.message);
  }
}

bool ViewerApp::source_pairs_are_stills() const {
  const SourceKind kind = state_.active_source.kind;
  return kind == SourceKind::ImagePair || kind == SourceKind::ImageSequence || kind == SourceKind::Dataset;
}

void ViewerApp::attach_calibration_pairs() {
  if (!source_pairs_are_stills()) return;
  calibration_pairs_ = std::make_shared<PairQueue>(1, pipeline_->queue_policy());
  pipeline_->fan_out().attach(calibration_pairs_);
}

void ViewerApp::feed_calibration() {
  if (calibration_pairs_ && !calibrate_ui_.open) {
    pipeline_->fan_out().detach(calibration_pairs_);  // closed: the file goes on without it
    calibration_pairs_.reset();
  }
  while (calibration_pairs_ && calibration_.ready_for_pair()) {
    std::optional<StereoPair> pair = calibration_pairs_->try_pop();
    if (!pair) break;
    calibration_.offer(pair->left, pair->right, pair->index);
  }
}

Rect ViewerApp::draw_cost_curve(const FrameLayout& layout) {
  if (!state_.cost_curve.open()) {
    cost_curve_dock_.dock();  // opened again, in its place
    return {};
  }
  // Under the Calibrate window when both are docked there.
  Rect slot = layout.side;
  if (calibrate_ui_.open && calibrate_dock_.docked()) {
    const float below = calibrate_dock_.rect().h + 4.0f * ui_scale_;
    slot.y += below;
    slot.h = std::max(200.0f * ui_scale_, slot.h - below);
  }
  cost_curve_dock_.place(slot);
  return draw_cost_curve_window(state_.cost_curve, frame_ ? frame_->result.probe : std::nullopt, slot);
}

bool ViewerApp::scripted_calibration_pending() const {
  return scripted_calibration_run_ || calibrate_ui_.apply_when_done || calibration_.calibrating();
}

void ViewerApp::script_failed(const std::string& reason) {
  std::cerr << "stereoview-viewer: script: " << reason << "\n";
  exit_code_ = 1;
}

void ViewerApp::calibrate_command(const std::string& command) {
  std::istringstream words(command);
  std::string sub;
  words >> sub;
  if (sub == "open") {
    std::string board;
    double square = 0.0, marker = 0.0;
    words >> board >> square >> marker;
    std::snprintf(calibrate_ui_.board, sizeof calibrate_ui_.board, "%s", board.c_str());
    calibrate_ui_.square = static_cast<float>(square);
    calibrate_ui_.marker = static_cast<float>(marker);
    calibrate_ui_.open = true;
    calibrate_ui_.start = true;
  } else if (sub == "capture") {
    calibration_.request_capture();
  } else if (sub == "auto") {
    std::string on;
    words >> on;
    calibration_.auto_capture = on == "on";
  } else if (sub == "run") {
    if (source_pairs_are_stills() && (calibration_pairs_ || calibrate_ui_.start)) {
      run_when_all_looked_at_ = true;
      scripted_calibration_run_ = true;
    } else if (calibration_.run_calibration()) {
      scripted_calibration_run_ = true;
    } else {
      state_.add_log("error: calibrate: start the window first");
      script_failed("calibrate run: the Calibrate window is not open or a calibration runs already");
    }
  } else if (sub == "save" || sub == "apply") {
    std::string path;
    if (words >> path) std::snprintf(calibrate_ui_.path, sizeof calibrate_ui_.path, "%s", path.c_str());
    if (sub == "save") {
      calibrate_ui_.save = true;
    } else {
      calibrate_ui_.apply_when_done = true;  // after a calibration still running
    }
  } else if (sub == "close") {
    calibrate_ui_.open = false;
  }
}

bool ViewerApp::save_calibration() {
  const auto& result = calibration_.result();
  if (!result) {
    calibrate_ui_.message = "nothing to save: calibrate first";
    state_.add_log("error: calibrate: " + calibrate_ui_.message);
    return false;
  }
  try {
    create_parent_folders(calibrate_ui_.path, "calibration");
    write_calibration_file(calibrate_ui_.path, stereo_calibration_yaml(result->calibration),
                           calibrate_ui_.overwrite);
  } catch (const std::exception& e) {
    calibrate_ui_.message = e.what();
    state_.add_log(std::string("error: calibrate: ") + e.what() +
                   (calibrate_ui_.overwrite ? "" : " (tick overwrite to replace it)"));
    return false;
  }
  calibrate_ui_.message = std::string("saved ") + calibrate_ui_.path;
  // Written once: a second Save or Apply of the same result may replace it.
  calibrate_ui_.overwrite = true;
  state_.add_log(std::string("calibrate: saved ") + calibrate_ui_.path);
  return true;
}

bool ViewerApp::apply_calibration() {
  if (!save_calibration()) return false;
  // The running source again at the same frame, rectified with the new file at once.
  SourceChoice choice = state_.active_source;
  choice.options.calib_path = calibrate_ui_.path;
  choice.rectify = true;
  if (switch_source(choice, frame_ ? frame_->pair.index : -1)) {
    state_.source = choice;
    state_.settings.epipolar_lines = true;
    calibration_.set_capturing(false);
    state_.add_log(std::string("calibrate: applied ") + calibrate_ui_.path);
    return true;
  }
  calibrate_ui_.message = state_.source_error;
  return false;
}

void ViewerApp::collect_results() {
  feed_calibration();
  collect_b();
  ProcessingThread& processing = pipeline_->processing();
  for (const std::string& message : processing.take_messages()) {
    state_.add_log(message);
    state_.engine.observe(message);
  }
  for (const std::string& notice : notices_.take()) {
    state_.add_log("source: " + notice);
    state_.source_notices.push_back(notice);
    while (state_.source_notices.size() > 4) state_.source_notices.pop_front();
  }
  std::optional<ProcessedFrame> frame = processing.take_latest();
  if (!frame) return;
  if (awaiting_index_ >= 0) {
    if (frame->pair.index != awaiting_index_ && ++awaiting_skipped_ <= kMaxSkippedAfterSeek) {
      if (state_.paused) processing.step();  // paused: fetch the next pair, up to the target
      return;
    }
    awaiting_index_ = -1;
  }
  const ImageRgb8& left = frame->pair.left;
  textures_->ensure_size(left.width(), left.height());
  show_views(*frame);
  if (calibrate_ui_.open && !calibration_pairs_) {
    calibration_.offer(frame->pair.left, frame->pair.right, frame->pair.index);
  }
  timings_.add(with_host_time(frame->result.timings, frame->host_ms), frame->processing_ms);
  frame_ = std::move(frame);
  ++frames_shown_;
  ++pipeline_frames_;
  measure_flicker();
  refresh_disparity_colours();
  ab_.add_a(*frame_);
  if (recorded_view() == RecordedView::A) recording_.add_frame(*frame_);
}

void ViewerApp::start_b(bool from_shown_pair, bool paused) {
  std::optional<StereoPair> first;
  if (from_shown_pair && frame_) first = frame_->pair;
  try {
    // B's disparity comes to the host: its view and the difference are drawn from there.
    ab_.start(pipeline_->fan_out(), pipeline_->queue_policy(), make_engine,
              state_.ab.engine.kind(), state_.ab.params, ResultParts{}, std::move(first), paused);
  } catch (const std::exception& e) {
    state_.ab.enabled = false;
    state_.add_log(std::string("error: A/B: B's engine: ") + e.what());
    return;
  }
  latest_generation_b_ = 0;
  ab_colour_key_.reset();
  ab_wait_since_s_ = -1.0;
  const SourceTruth truth = source_truth();
  if (truth.known()) {
    ab_.set_truth([truth](const AbPairKey& key) { return truth.at(key.index); });
  } else {
    ab_.set_truth(nullptr);
  }
  state_.add_log("A/B: B on " + state_.ab.engine.kind() + ", " +
                 ab_parameter_changes(state_.params, state_.ab.params));
}

// Before the run's screenshot, B on the frame on screen. B skips pairs while it is busy (a
// running source's newest-wins queue), and while A is paused for the screenshot B goes on to
// pairs A never shows, so it may never compute the frame on screen: then it starts again on that
// pair alone (paused: the run ends with the screenshot).
void ViewerApp::settle_b_for_screenshot() {
  if (!ab_.running() || !frame_ || b_settling_sequence_ == frame_->sequence) return;
  const std::optional<AbMatch>& match = ab_.match();
  if (match && match->a.sequence == frame_->sequence) return;
  b_settling_sequence_ = frame_->sequence;
  const double waiting_since = ab_wait_since_s_;
  start_b(true, true);
  ab_wait_since_s_ = waiting_since;
  ab_.add_a(*frame_);
}

void ViewerApp::collect_b() {
  if (!ab_.running()) return;
  const uint64_t version = ab_.match_version();
  std::vector<std::string> messages;
  ab_.collect_b(messages);
  for (const std::string& message : messages) {
    state_.add_log("B: " + message);
    state_.ab.engine.observe(message);
  }
  const std::optional<AbMatch>& match = ab_.match();
  if (match && ab_.match_version() != version) {
    if (recorded_view() == RecordedView::B) recording_.add_frame(*match->b_frame);
    if (recorded_view() == RecordedView::Difference) {
      recording_.add_difference(*match, colorize_difference(match->difference, state_.ab.difference_scale));
    }
  }
}

SourceTruth ViewerApp::source_truth() const {
  if (state_.active_source.kind == SourceKind::Synthetic) return SourceTruth::of_synthetic(state_.scene);
  return dataset_truth_;
}

ViewerApp::RecordedView ViewerApp::recorded_view() const {
  if (!ab_.running()) return RecordedView::A;
  for (int i = 0; i < state_.settings.layout; ++i) {
    const ViewKind kind = state_.settings.views[i];
    if (kind == ViewKind::DisparityB) return RecordedView::B;
    if (kind == ViewKind::Difference) return RecordedView::Difference;
    if (kind == ViewKind::Disparity || kind == ViewKind::Blend) return RecordedView::A;
  }
  return RecordedView::A;
}

// B's disparity in A's colours (the same colour is the same disparity on both sides), and the
// difference; redrawn for a new pair, colours or texture storage.
void ViewerApp::refresh_b_colours() {
  const std::optional<AbMatch>& match = ab_.match();
  if (!match || !textures_->has_content() ||
      !match->b.disparity.same_size(textures_->width(), textures_->height())) {
    return;
  }
  const DisparityRange range = colour_range_.range();
  const AbColourKey key{ab_.match_version(), state_.settings.colormap, range,
                        state_.ab.difference_scale, textures_->storage_generation()};
  if (ab_colour_key_ && *ab_colour_key_ == key) return;
  ab_colour_key_ = key;
  colorized_b_ = colorize_disparity(match->b.disparity, range.lo, range.hi,
                                    state_.settings.colormap, kInvalidColor);
  difference_colours_ = colorize_difference(match->difference, state_.ab.difference_scale);
  textures_->upload_ab_from_host(colorized_b_, difference_colours_);
}

void ViewerApp::apply_ab_requests(const AbRequests& requests) {
  AbSettings& ab = state_.ab;
  AbRequests r = requests;
  if (r.copy_a_to_b) {
    ab.params = state_.params;
    r.params_changed = true;
    r.engine = state_.engine.kind();
    state_.add_log("A/B: copied A to B");
  }
  if (r.copy_b_to_a) {
    state_.params = ab.params;
    latest_generation_ = pipeline_->processing().set_params(state_.params);
    if (state_.engine.request(ab.engine.kind())) pipeline_->processing().request_engine(ab.engine.kind());
    state_.add_log("A/B: copied B to A");
  }
  if (r.enable && *r.enable && !ab_.running()) {
    ab.enabled = true;
    start_b(true, state_.paused);
  } else if (r.enable && !*r.enable && ab_.running()) {
    ab_.stop();
    ab.enabled = false;
    ab.edited = AbSide::A;
    state_.add_log("A/B: off");
  }
  if (!ab_.running()) return;
  if (r.params_changed) latest_generation_b_ = ab_.processing()->set_params(ab.params);
  if (!r.engine.empty() && ab.engine.request(r.engine)) ab_.processing()->request_engine(r.engine);
}

void ViewerApp::apply_ab_script(const ScriptEvent& event) {
  if (event.action == ScriptAction::AbSetParam) {
    StereoParams changed = state_.ab.params;
    set_param(changed, event.key, event.value);
    const auto problems = changed.validate();
    if (!problems.empty()) {
      state_.add_log("error: script line " + std::to_string(event.line) + ": B: " + problems[0]);
      return;
    }
    state_.ab.params = changed;
    state_.requests.ab.params_changed = true;
    return;
  }
  apply_ab_command(event.value, state_.ab, state_.requests.ab, state_.settings);
}

bool ViewerApp::ab_settled() const {
  if (!ab_.running() || !frame_) return true;
  const std::optional<AbMatch>& match = ab_.match();
  // B on the frame on screen, with the latest parameters of both sides and its errors; a B that
  // cannot get there (far slower than A, or failing) is shown as it is after kMaxAbWaitS.
  const bool caught_up = match && state_.ab.engine.pending().empty() && !ab_.errors_pending() &&
                         match->a.sequence == frame_->sequence &&
                         match->a.params_generation >= latest_generation_ &&
                         match->b.params_generation >= latest_generation_b_;
  return caught_up || (ab_wait_since_s_ >= 0.0 && seconds_now() - ab_wait_since_s_ > kMaxAbWaitS);
}

void ViewerApp::log_input() {
  if (!options_.log_input) return;
  const ImGuiIO& io = ImGui::GetIO();
  char line[128];
  std::snprintf(line, sizeof line, "input: pointer %.0f %.0f buttons %d %d %d wheel %.0f",
                io.MousePos.x, io.MousePos.y, io.MouseDown[0] ? 1 : 0, io.MouseDown[1] ? 1 : 0,
                io.MouseDown[2] ? 1 : 0, io.MouseWheel);
  if (line == last_input_line_ && io.MouseWheel == 0.0f) return;
  last_input_line_ = line;
  std::cerr << line << std::endl;
}

bool ViewerApp::shows_what_was_asked() const {
  if (!frame_ || frame_->params_generation < latest_generation_) return false;
  const std::optional<ProbePixel> wanted = state_.cost_curve.wanted();
  const std::optional<PixelCosts>& probe = frame_->result.probe;
  const bool probe_shown = !wanted || (probe && probe->pixel.x == wanted->x && probe->pixel.y == wanted->y);
  return probe_shown && ab_settled();
}

bool ViewerApp::screenshot_on_close(const FrameLayout& layout) {
  const bool closing = quit_ || glfwWindowShouldClose(window_) || closing_since_s_ >= 0.0;
  if (!closing || options_.frames > 0 || options_.screenshot_path.empty()) return false;
  if (closing_since_s_ < 0.0) closing_since_s_ = seconds_now();
  if (!shows_what_was_asked() && seconds_now() - closing_since_s_ <= kMaxAbWaitS) {
    quit_ = false;  // until the frame comes
    glfwSetWindowShouldClose(window_, GLFW_FALSE);
    return true;
  }
  if (!write_screenshot(layout)) exit_code_ = 1;
  quit_ = true;
  return false;
}

// The views straight from the GPU where the engine rectified them there, else from the pair.
void ViewerApp::show_views(const ProcessedFrame& frame) {
  const DisplayPath before = textures_->views_display_path();
  DisplayPath now = DisplayPath::HostUpload;
#ifdef STEREOVIEW_HAS_CUDA_GL
  const auto* views = interop_views_ ? dynamic_cast<const cuda::DeviceViews*>(
                                           frame.result.device_views.get())
                                     : nullptr;
  if (views != nullptr && views->width() == textures_->width() &&
      views->height() == textures_->height()) {
    try {
      interop_views_->show(*views, textures_->texture(ViewImage::Left),
                           textures_->texture(ViewImage::Right));
      now = DisplayPath::Interop;
    } catch (const std::exception& e) {
      state_.add_log(std::string("error: CUDA-GL interop (views): ") + e.what() +
                     "; using host upload");
      interop_views_.reset();
    }
  }
#endif
  if (now == DisplayPath::Interop) {
    textures_->set_views_display_path(DisplayPath::Interop);
  } else {
    textures_->upload_views_from_host(frame.pair.left, frame.pair.right);
  }
  if (now != before) {
    state_.add_log(std::string("views path: ") + display_path_name(now) +
                   (now == DisplayPath::Interop ? " (rectified by the CUDA engine)" : ""));
  }
}

void ViewerApp::measure_flicker() {
  const std::optional<double> flicker = flicker_meter_.add(frame_->result.disparity);
  if (!flicker) {
    flicker_history_.clear();
    return;
  }
  flicker_history_.push_back(*flicker);
  while (flicker_history_.size() > kFlickerFrames) flicker_history_.pop_front();
}

void ViewerApp::update_frame_statistics() {
  if (!frame_) return;
  colour_range_.update(state_.settings.range, frame_->params, frame_->result.disparity,
                       frames_shown_, seconds_now());
  RegionProbe::TruthFn truth;
  if (const SourceTruth source = source_truth(); source.known()) {
    const int64_t index = frame_->pair.index;
    const int w = frame_->result.disparity.width(), h = frame_->result.disparity.height();
    truth = [source, index, w, h] {
      std::optional<PairTruth> t = source.at(index);
      return t && t->disparity.same_size(w, h) ? std::move(t->disparity) : ImageF32{};
    };
  }
  region_.update(state_.settings.region, frame_->result.disparity, frames_shown_,
                 state_.settings.calibration, truth, seconds_now());
}

void ViewerApp::refresh_disparity_colours() {
  if (!frame_) return;
  update_frame_statistics();
  const DisparityRange range = colour_range_.range();
  const ColourKey key{state_.settings.colormap, range, frame_->sequence};
  if (colour_key_ && *colour_key_ == key) return;
  colour_key_ = key;
#ifdef STEREOVIEW_HAS_CUDA_GL
  // The engine left this result on the GPU: colorize it there, straight into the texture.
  const auto* device = interop_view_ ? dynamic_cast<const cuda::DeviceDisparity*>(
                                           frame_->result.device.get())
                                     : nullptr;
  if (device != nullptr) {
    try {
      interop_view_->show(*device, range.lo, range.hi, state_.settings.colormap, kInvalidColor,
                          textures_->texture(ViewImage::Disparity));
      textures_->set_display_path(DisplayPath::Interop);
      colorized_stale_ = true;
      return;
    } catch (const std::exception& e) {
      state_.add_log(std::string("error: CUDA-GL interop: ") + e.what() + "; using host upload");
      interop_view_.reset();
    }
  }
#endif
  colorized_ = colorize_disparity(frame_->result.disparity, range.lo, range.hi,
                                  state_.settings.colormap, kInvalidColor);
  colorized_stale_ = false;
  textures_->upload_disparity_from_host(colorized_);
  textures_->set_display_path(DisplayPath::HostUpload);
}

// The shown disparity's colours on the host (snapshots), made on demand after the interop path.
const ImageRgb8& ViewerApp::colorized() {
  if (colorized_stale_ && frame_) {
    const DisparityRange range = colour_range_.range();
    colorized_ = colorize_disparity(frame_->result.disparity, range.lo, range.hi,
                                    state_.settings.colormap, kInvalidColor);
    colorized_stale_ = false;
  }
  return colorized_;
}

void ViewerApp::play_script(double seconds) {
  for (const ScriptEvent& event : script_.due(seconds, frames_shown_)) {
    char when[64];
    if (event.trigger == ScriptTrigger::Frame) {
      std::snprintf(when, sizeof when, "frame %lld", static_cast<long long>(frames_shown_));
    } else {
      std::snprintf(when, sizeof when, "%.2f s", seconds);
    }
    state_.add_log("script line " + std::to_string(event.line) + " (" + when + "): " + event.text);
    apply_script_event(event);
  }
}

void ViewerApp::apply_script_event(const ScriptEvent& event) {
  switch (event.action) {
    case ScriptAction::SetParam: {
      StereoParams changed = state_.params;
      set_param(changed, event.key, event.value);
      const auto problems = changed.validate();
      if (!problems.empty()) {
        state_.add_log("error: script line " + std::to_string(event.line) + ": " + problems[0]);
        return;
      }
      state_.params = changed;
      state_.requests.params_changed = true;
      break;
    }
    case ScriptAction::Colormap: state_.settings.colormap = parse_colormap(event.value); break;
    case ScriptAction::Layout: state_.settings.layout = std::stoi(event.value); break;
    case ScriptAction::View: state_.settings.views[0] = parse_view_kind(event.value); break;
    case ScriptAction::Engine: state_.requests.engine = event.value; break;
    case ScriptAction::Pause:
      if (!state_.paused) state_.requests.toggle_pause = true;
      break;
    case ScriptAction::Resume:
      if (state_.paused) state_.requests.toggle_pause = true;
      break;
    case ScriptAction::Snapshot:
      if (!event.value.empty()) state_.snapshot_dir = event.value;
      state_.requests.snapshot = true;
      break;
    case ScriptAction::Quit: state_.requests.quit = true; break;
    case ScriptAction::RecordStart: {
      const size_t space = event.value.find(' ');
      recording_.request_start(event.value.substr(0, space),
                               space == std::string::npos ? "" : event.value.substr(space + 1));
      break;
    }
    case ScriptAction::RecordStop: recording_.request_stop(); break;
    case ScriptAction::Calibrate: calibrate_command(event.value); break;
    case ScriptAction::AbSetParam:
    case ScriptAction::Ab: apply_ab_script(event); break;
    case ScriptAction::Seek: state_.requests.seek_to = std::stoll(event.value); break;
    case ScriptAction::Source: {
      // Checked when the script was read; opened now, and a failure only logs.
      std::istringstream words(event.value);
      std::vector<std::string> flags;
      for (std::string word; words >> word;) flags.push_back(word);
      state_.source = source_choice_from_cli(parse_source_flags(flags));
      state_.requests.open_source = true;
      break;
    }
  }
}

FrameLayout ViewerApp::compute_layout(float menu_height) {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  LayoutInputs in;
  in.window_w = static_cast<float>(width);
  in.window_h = static_cast<float>(height);
  in.menu_height = menu_height;
  in.ui_scale = ui_scale_;
  in.show_panel = state_.settings.show_panel;
  in.layout = state_.settings.layout;
  in.views = state_.settings.views;
  in.disparity_bar_w = colour_bar_width(state_.settings.calibration);
  in.confidence_bar_w = confidence_bar_width();
  in.timings_docked = state_.settings.show_timings && timings_window_.docked();
  // Until the window measured its content: the rates, the plot and a table of ten stages.
  in.timings_height = timings_window_.wanted_height() > 0.0f
                          ? timings_window_.wanted_height()
                          : 15.0f * ImGui::GetFrameHeightWithSpacing();
  timings_height_used_ = in.timings_height;
  in.recording_docked = recording_dock_.docked();
  const Rect recording = recording_dock_.rect();
  in.recording_height = recording.h > 0.0f ? recording.h : ImGui::GetFrameHeight();
  const bool side_windows = (calibrate_ui_.open && calibrate_dock_.docked()) ||
                            (state_.cost_curve.open() && cost_curve_dock_.docked());
  in.side_w = side_windows ? kSideColumnWidth * ui_scale_ : 0.0f;
  in.image_w = textures_->width();
  in.image_h = textures_->height();
  in.transform = state_.transform;
  return compute_frame_layout(in);
}

void ViewerApp::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) state_.requests.toggle_pause = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) state_.requests.step = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) state_.requests.snapshot = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) recording_.request_toggle();
  if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) state_.settings.show_panel = !state_.settings.show_panel;
  if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) {
    state_.settings.show_timings = !state_.settings.show_timings;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) state_.requests.toggle_fullscreen = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) state_.cost_curve.set_open(!state_.cost_curve.open());
  if (ImGui::IsKeyPressed(GLFW_KEY_C, false)) {
    calibrate_ui_.open = !calibrate_ui_.open;
    if (calibrate_ui_.open && !calibration_.started()) calibrate_ui_.start = true;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_V, false) && calibrate_ui_.open) calibration_.request_capture();
  if (ImGui::IsKeyPressed(GLFW_KEY_Q, false) || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
    state_.requests.quit = true;
  }
}

void ViewerApp::handle_mouse(const FrameLayout& layout) {
  const ImGuiIO& io = ImGui::GetIO();
  const int iw = textures_->width(), ih = textures_->height();
  cursor_ = CursorReadout{};
  if (!ImGui::IsMouseDown(0)) dragging_ = false;
  if (!ImGui::IsMouseDown(1)) selecting_ = false;
  if (!dragging_ && !selecting_ && cloud_view_->handle_mouse(layout.cells, state_.settings.views)) return;
  if (io.WantCaptureMouse && !dragging_ && !selecting_) return;
  const float mx = io.MousePos.x, my = io.MousePos.y;
  // A pointer that never moved (parked where the window opened, as under Xvfb) gets no tooltip.
  if (ImGui::IsMousePosValid() && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    mouse_moved_ = true;
  }
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    if (state_.settings.views[i] == ViewKind::Cloud) continue;  // cloud_view_'s mouse
    const Rect& cell = layout.cells[i];
    // A region drag stays with the view it started in, wherever the pointer goes.
    if (selecting_ ? i != select_cell_ : !cell.contains(mx, my) && !dragging_) continue;
    if (io.MouseWheel != 0.0f) {
      zoom_about(state_.transform, cell, iw, ih, std::pow(1.15f, io.MouseWheel), mx, my);
    }
    if (ImGui::IsMouseDoubleClicked(0)) state_.transform = ViewTransform{};
    if (ImGui::IsMouseClicked(0)) dragging_ = true;
    if (dragging_ && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
      pan_by(state_.transform, cell, iw, ih, io.MouseDelta.x, io.MouseDelta.y);
    }
    float ix = 0, iy = 0;
    window_to_image(image_rect(cell, iw, ih, state_.transform), iw, ih, mx, my, ix, iy);
    if (ImGui::IsMouseClicked(1) && frame_) {
      selecting_ = true;
      select_cell_ = i;
      select_from_x_ = std::clamp(ix, 0.0f, static_cast<float>(iw));
      select_from_y_ = std::clamp(iy, 0.0f, static_cast<float>(ih));
    }
    if (selecting_) select_region(ix, iy);
    if (frame_ && ix >= 0 && iy >= 0 && ix < iw && iy < ih &&
        frame_->result.disparity.same_size(iw, ih)) {
      cursor_.inside = true;
      cursor_.x = static_cast<int>(ix);
      cursor_.y = static_cast<int>(iy);
      state_.cost_curve.hover(ProbePixel{cursor_.x, cursor_.y});
      // A click that did not drag pins the Cost curve to the pixel.
      if (state_.cost_curve.open() && ImGui::IsMouseReleased(0) &&
          io.MouseDragMaxDistanceSqr[0] < 4.0f) {
        state_.cost_curve.pin(ProbePixel{cursor_.x, cursor_.y});
      }
      cursor_.disparity = frame_->result.disparity.at(cursor_.x, cursor_.y);
      const ImageF32& confidence = frame_->result.confidence;
      if (confidence.same_size(iw, ih)) cursor_.confidence = confidence.at(cursor_.x, cursor_.y);
    }
    break;
  }
}

void ViewerApp::update_result_parts(bool force) {
  const std::optional<ProbePixel> wanted = state_.cost_curve.wanted();
  const bool same = wanted.has_value() == requested_probe_.has_value() &&
                    (!wanted || (wanted->x == requested_probe_->x && wanted->y == requested_probe_->y));
  if (same && !force) return;
  requested_probe_ = wanted;
  ResultParts want;
  want.device = interop_;  // as the pipeline was made (FramePipeline)
  want.probe = wanted;
  ProcessingThread& processing = pipeline_->processing();
  processing.set_result_parts(want);
  // Paused, the thread recomputes its pair for new parameters only: handing them over again
  // makes the curve follow the cursor on a still frame.
  if (state_.paused && wanted && !force) latest_generation_ = processing.set_params(state_.params);
}

void ViewerApp::select_region(float image_x, float image_y) {
  const float w = static_cast<float>(textures_->width()), h = static_cast<float>(textures_->height());
  const float x0 = std::min(select_from_x_, std::clamp(image_x, 0.0f, w));
  const float x1 = std::max(select_from_x_, std::clamp(image_x, 0.0f, w));
  const float y0 = std::min(select_from_y_, std::clamp(image_y, 0.0f, h));
  const float y1 = std::max(select_from_y_, std::clamp(image_y, 0.0f, h));
  // Whole pixels the drag touched; a click without a drag clears the region.
  RegionRect r{static_cast<int>(x0), static_cast<int>(y0), 0, 0};
  if (x1 - x0 >= 1.0f && y1 - y0 >= 1.0f) {
    r.width = static_cast<int>(std::ceil(x1)) - r.x;
    r.height = static_cast<int>(std::ceil(y1)) - r.y;
  }
  state_.settings.region = clip_rect(r, textures_->width(), textures_->height());
}

void ViewerApp::draw_region_outline(const FrameLayout& layout) {
  const RegionRect& r = state_.settings.region;
  const int iw = textures_->width(), ih = textures_->height();
  if (r.empty() || iw <= 0 || ih <= 0) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    if (state_.settings.views[i] == ViewKind::Cloud) continue;
    const Rect& cell = layout.cells[i];
    const Rect& image = layout.images[i];
    const ImVec2 a(image.x + r.x * image.w / iw, image.y + r.y * image.h / ih);
    const ImVec2 b(image.x + (r.x + r.width) * image.w / iw, image.y + (r.y + r.height) * image.h / ih);
    draw->PushClipRect(ImVec2(cell.x, cell.y), ImVec2(cell.x + cell.w, cell.y + cell.h), true);
    // Dark under light, so the outline shows on any colour.
    draw->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, 4.0f);
    draw->AddRect(a, b, IM_COL32(255, 255, 0, 255), 0.0f, 0, 2.0f);
    draw->PopClipRect();
  }
}

void ViewerApp::draw_view_overlays(const FrameLayout& layout) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  ab_legend_rect_ = {};
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    const Rect& cell = layout.cells[i];
    draw->AddRect(ImVec2(cell.x, cell.y), ImVec2(cell.x + cell.w, cell.y + cell.h),
                  IM_COL32(70, 70, 70, 255));
    const ViewKind kind = state_.settings.views[i];
    const bool no_confidence = kind == ViewKind::Confidence && frame_ &&
                               frame_->result.confidence.empty();
    const bool ab_view = kind == ViewKind::DisparityB || kind == ViewKind::Difference;
    std::string label = kind == ViewKind::Cloud ? cloud_view_->label() : view_kind_name(kind);
    if (no_confidence) label = "confidence (off: turn on 'confidence' in the panel)";
    if (ab_view && !ab_.running()) label += " (A/B off: tick 'A/B compare' in the panel)";
    if (ab_view && ab_.running() && !ab_.match()) label += " (waiting for B)";
    if (ab_view && ab_.match()) draw_ab_legend(draw, cell, kind);
    const char* name = label.c_str();
    draw->AddRectFilled(ImVec2(cell.x, cell.y),
                        ImVec2(cell.x + ImGui::CalcTextSize(name).x + 8.0f,
                               cell.y + ImGui::GetTextLineHeightWithSpacing()),
                        IM_COL32(0, 0, 0, 160));
    draw->AddText(ImVec2(cell.x + 4.0f, cell.y + 1.0f), IM_COL32(255, 255, 255, 255), name);
  }
  if (state_.settings.epipolar_lines) draw_epipolar_lines(layout);
  if (calibrate_ui_.open) draw_detected_corners(calibration_, layout, state_.settings.views);
  draw_region_outline(layout);
  if (frame_ && frame_->result.probe && state_.cost_curve.open()) {
    draw_probe_marker(frame_->result.probe->pixel, layout.cells, layout.images, textures_->width(),
                      textures_->height());
  }
  if (layout.disparity_bar.w > 0.0f && frame_) {
    draw_colour_bar(draw, layout.disparity_bar, state_.settings.colormap,
                    colour_range_.range(),
                    state_.settings.calibration);
  }
  if (layout.confidence_bar.w > 0.0f) draw_confidence_bar(draw, layout.confidence_bar);
  if (!frame_) {
    const char* waiting = "waiting for the first frame...";
    draw->AddText(ImVec2(layout.views.center_x() - 0.5f * ImGui::CalcTextSize(waiting).x,
                         layout.views.center_y()),
                  IM_COL32(200, 200, 200, 255), waiting);
  }
  if (cursor_.inside && mouse_moved_ && !ImGui::GetIO().WantCaptureMouse) {
    ImGui::SetTooltip("%s", cursor_readout_text(cursor_, state_.settings.calibration).c_str());
  }
}

// Under the view's name: B's parameter changes, or the difference's colours and counts.
void ViewerApp::draw_ab_legend(ImDrawList* draw, const Rect& cell, ViewKind kind) {
  const AbMatch& match = *ab_.match();
  std::vector<std::pair<std::string, ImU32>> lines;
  const ImU32 white = IM_COL32(255, 255, 255, 255);
  if (kind == ViewKind::DisparityB) {
    lines.emplace_back("B: " + ab_parameter_changes(match.a.params, match.b.params), white);
  } else {
    const DifferenceCounts& c = match.difference.counts;
    char text[160];
    std::snprintf(text, sizeof text, "%lld px differ (of %lld), mean |A-B| %.2f px",
                  static_cast<long long>(c.changed()), static_cast<long long>(c.pixels), c.mean_abs);
    lines.emplace_back(text, white);
    std::snprintf(text, sizeof text, "black: equal, red to yellow: |A-B| up to %.2f px",
                  state_.ab.difference_scale);
    lines.emplace_back(text, white);
    auto colour = [](Rgb8 c) { return IM_COL32(c.r, c.g, c.b, 255); };
    lines.emplace_back("only A has a disparity", colour(kDifferenceOnlyAColor));
    lines.emplace_back("only B has a disparity", colour(kDifferenceOnlyBColor));
  }
  // One framed box behind all the lines, dark enough for the legend to read over any colour
  // (a translucent strip per line left it floating over the difference's black and yellow).
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float pad = 4.0f * ui_scale_;
  float text_w = 0.0f;
  for (const auto& line : lines) text_w = std::max(text_w, ImGui::CalcTextSize(line.first.c_str()).x);
  const Rect box{cell.x, cell.y + line_h, text_w + 2.0f * pad, lines.size() * line_h + pad};
  ab_legend_rect_ = box;
  draw->PushClipRect(ImVec2(cell.x, cell.y), ImVec2(cell.x + cell.w, cell.y + cell.h), true);
  draw->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.x + box.w, box.y + box.h), kLegendBackdrop);
  draw->AddRect(ImVec2(box.x, box.y), ImVec2(box.x + box.w, box.y + box.h), kLegendBorder);
  float y = box.y + 0.5f * pad;
  for (const auto& [text, colour] : lines) {
    draw->AddText(ImVec2(box.x + pad, y), colour, text.c_str());
    y += line_h;
  }
  draw->PopClipRect();
}

void ViewerApp::draw_epipolar_lines(const FrameLayout& layout) {
  constexpr int kLines = 8;
  const int ih = textures_->height();
  if (ih <= 0) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    const ViewKind kind = state_.settings.views[i];
    if (kind == ViewKind::Disparity || kind == ViewKind::DisparityB || kind == ViewKind::Difference ||
        kind == ViewKind::Cloud) {
      continue;
    }
    const Rect& cell = layout.cells[i];
    const Rect& image = layout.images[i];
    const float x0 = std::max(cell.x, image.x);
    const float x1 = std::min(cell.x + cell.w, image.x + image.w);
    for (int k = 1; k <= kLines; ++k) {
      // Image row k * h / (n + 1), on a whole window pixel: AddLine goes through its centre,
      // so the line stays one crisp pixel high.
      const int row = k * ih / (kLines + 1);
      const float y = std::floor(image.y + (row + 0.5f) * image.h / ih);
      if (y < cell.y || y > cell.y + cell.h || x1 <= x0) continue;
      draw->AddLine(ImVec2(x0, y), ImVec2(x1, y), IM_COL32(0, 255, 0, 255), 1.0f);
    }
  }
}

void ViewerApp::apply_requests() {
  PanelRequests requests = state_.requests;
  state_.requests = PanelRequests{};
  ProcessingThread& processing = pipeline_->processing();
  if (requests.params_changed) latest_generation_ = processing.set_params(state_.params);
  if (!requests.engine.empty() && state_.engine.request(requests.engine)) {
    processing.request_engine(requests.engine);
  }
  if (requests.toggle_cloud_recording) {
    if (cloud_recorder_) {
      stop_cloud_recording();
    } else {
      start_cloud_recording(state_.cloud_record_dir);
    }
  }
  if (requests.cloud_preset >= 0) {
    cloud_view_->show_preset(static_cast<CloudViewPreset>(requests.cloud_preset));
  }
  if (requests.dock_timings) timings_window_.dock();
  if (requests.dock_recording) recording_dock_.dock();
  apply_ab_requests(requests.ab);
  ProcessingThread* processing_b = ab_.processing();
  if (requests.toggle_pause) {
    state_.paused = !state_.paused;
    processing.set_paused(state_.paused);
    if (processing_b) processing_b->set_paused(state_.paused);
  }
  if (requests.step) {
    state_.paused = true;
    processing.set_paused(true);
    processing.step();
    if (processing_b) {
      processing_b->set_paused(true);
      processing_b->step();
    }
  }
  if (requests.snapshot) {
    if (!frame_) {
      state_.add_log("snapshot: no frame yet");
    } else {
      try {
        const std::optional<StereoGeometry> geometry = shown_geometry();
        const auto written =
            write_snapshot(state_.snapshot_dir, *frame_, colorized(), geometry ? &*geometry : nullptr);
        state_.add_log("snapshot: " + written[0] + " (+ .pfm, left, right, 16-bit" +
                       (geometry ? ", .ply)" : ")"));
        if (const std::optional<AbMatch>& match = ab_.match(); match && ab_.running()) {
          write_ab_snapshot(state_.snapshot_dir, *match, colorized_b_, difference_colours_,
                            geometry ? &*geometry : nullptr);
          state_.add_log("snapshot: B's files in " + state_.snapshot_dir + "/b, difference " +
                         ab_difference_png_path(state_.snapshot_dir, *match));
        }
        write_cloud_snapshot();
      } catch (const std::exception& e) {
        state_.add_log(std::string("error: snapshot: ") + e.what());
      }
    }
  }
  const CaptureStatus capture = pipeline_->capture().status();
  // A recording starts with the parameters and engine of the side it takes.
  const ProcessedFrame* recorded =
      recorded_view() == RecordedView::B && ab_.match() ? ab_.match()->b_frame.get()
                                                        : (frame_ ? &*frame_ : nullptr);
  RecordingContext context{capture.source, recording_frame_rate(capture), state_.settings.colormap,
                           state_.active_source.options.calib_path, shown_geometry(), std::nullopt};
  if (recorded_view() == RecordedView::Difference) context.difference_scale = state_.ab.difference_scale;
  recording_.update(recorded, context);
  if (requests.open_source) switch_source(state_.source);
  if (requests.reopen_source) {
    // The same input at the same frame, e.g. raw after rectified.
    switch_source(state_.active_source, frame_ ? frame_->pair.index : -1);
  }
  if (requests.seek_to >= 0) seek(requests.seek_to);
  if (requests.playback_changed) {
    pipeline_->playback().set_loop(state_.loop);
    pipeline_->playback().set_paced(state_.realtime);
  }
  if (requests.list_cameras) state_.camera_list = describe_attached_cameras();
  if (requests.toggle_fullscreen) {
    if (glfwGetWindowMonitor(window_)) {
      glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, 0);
    } else if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
      glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
      glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
      const GLFWvidmode* mode = glfwGetVideoMode(monitor);
      glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    }
  }
  if (requests.quit) quit_ = true;
}

// The confidence texture, made only while a view shows it: [0, 1] through inferno (bright is
// sure), a uniform dark grey when the result carries no confidence.
void ViewerApp::refresh_confidence_view(size_t shown_views) {
  if (!frame_ || confidence_sequence_ == frame_->sequence) return;
  bool shown = false;
  for (size_t i = 0; i < shown_views; ++i) shown |= state_.settings.views[i] == ViewKind::Confidence;
  if (!shown) return;
  confidence_sequence_ = frame_->sequence;
  const ImageF32& confidence = frame_->result.confidence;
  if (confidence.same_size(textures_->width(), textures_->height())) {
    textures_->upload_confidence_from_host(
        colorize_disparity(confidence, 0.0f, 1.0f, Colormap::Inferno, kInvalidColor));
  } else {
    textures_->upload_confidence_from_host(
        ImageRgb8(textures_->width(), textures_->height(), Rgb8{40, 40, 40}));
  }
}

CloudInputs ViewerApp::cloud_inputs() const {
  CloudInputs in;
  in.geometry = shown_geometry();
  in.manual = state_.settings.calibration;
  in.colour_range = colour_range_.range();
  in.colormap = state_.settings.colormap;
  in.settings = state_.settings.cloud;
  return in;
}

// With a 3D view on screen, its cloud as shown (visible points, their colours) beside the
// snapshot: frame_<index>_cloud.ply.
void ViewerApp::write_cloud_snapshot() {
  const auto end = state_.settings.views.begin() + layout_.cells.size();
  if (std::find(state_.settings.views.begin(), end, ViewKind::Cloud) == end) return;
  char name[64];
  std::snprintf(name, sizeof name, "/frame_%06lld_cloud.ply",
                static_cast<long long>(frame_->pair.index));
  const std::string path = state_.snapshot_dir + name;
  // The vertices first: they bring the view's projection (and so its units) up to this frame.
  const std::vector<CloudVertex>& vertices = cloud_view_->host_vertices(*frame_, cloud_inputs());
  const int64_t count =
      write_cloud_vertices_ply(path, vertices, cloud_view_->metric() ? "metres" : "pixels");
  state_.add_log("snapshot: " + path + " (" + std::to_string(count) + " points of the 3D view)");
}

bool ViewerApp::cloud_on_screen() const {
  const auto end = state_.settings.views.begin() + state_.settings.layout;
  return std::find(state_.settings.views.begin(), end, ViewKind::Cloud) != end;
}

// The 3D view's vertices, made only while a view shows it.
void ViewerApp::refresh_cloud(size_t shown_views) {
  if (!frame_) return;
  bool shown = false;
  for (size_t i = 0; i < shown_views; ++i) shown |= state_.settings.views[i] == ViewKind::Cloud;
  if (!shown) return;
  const PointCloudRenderer::Path before = cloud_view_->path();
  try {
    cloud_view_->update(*frame_, cloud_inputs());
    cloud_error_.clear();
  } catch (const std::exception& e) {
    // Once per distinct failure, not once per display frame.
    if (cloud_error_ != e.what()) state_.add_log(std::string("error: 3D view: ") + e.what());
    cloud_error_ = e.what();
    return;
  }
  if (cloud_view_->path() != before || !cloud_path_logged_) {
    cloud_path_logged_ = true;
    state_.add_log(std::string("3D view path: ") + cloud_path_name(cloud_view_->path()));
  }
  record_cloud();
}

void ViewerApp::start_cloud_recording(const std::string& folder) {
  try {
    cloud_recorder_ = std::make_unique<CloudRecorder>(folder);
    cloud_recorded_sequence_ = -1;
    cloud_error_logged_ = false;
    state_.add_log("3D view: recording clouds into " + folder);
  } catch (const std::exception& e) {
    state_.add_log(std::string("error: 3D view recording: ") + e.what());
  }
}

void ViewerApp::stop_cloud_recording() {
  if (!cloud_recorder_) return;
  cloud_recorder_->finish();
  const CloudRecorder::Status s = cloud_recorder_->status();
  state_.add_log("3D view: recorded " + std::to_string(s.written) + " clouds into " +
                 cloud_recorder_->folder() + ", " + std::to_string(s.dropped) + " dropped" +
                 (s.error.empty() ? "" : " (stopped: " + s.error + ")"));
  cloud_recorder_.reset();
}

// Each new frame's cloud, as shown, to the recorder's thread.
void ViewerApp::record_cloud() {
  if (!cloud_recorder_ || cloud_recorded_sequence_ == frame_->sequence) return;
  cloud_recorded_sequence_ = frame_->sequence;
  const CloudRecorder::Status s = cloud_recorder_->status();
  if (!s.error.empty()) {
    if (!cloud_error_logged_) state_.add_log("error: 3D view recording: " + s.error);
    cloud_error_logged_ = true;
    return;
  }
  std::vector<CloudVertex> vertices = cloud_view_->host_vertices(*frame_, cloud_inputs());
  cloud_recorder_->add(frame_->pair.index, std::move(vertices),
                       cloud_view_->metric() ? "metres" : "pixels");
}

void ViewerApp::render_views(const FrameLayout& layout) {
  Framebuffer fb;
  glfwGetFramebufferSize(window_, &fb.width, &fb.height);
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  fb.scale_x = width > 0 ? static_cast<float>(fb.width) / width : 1.0f;
  fb.scale_y = height > 0 ? static_cast<float>(fb.height) / height : 1.0f;
  glViewport(0, 0, fb.width, fb.height);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  refresh_confidence_view(layout.cells.size());
  refresh_cloud(layout.cells.size());
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    if (state_.settings.views[i] == ViewKind::Cloud) {
      if (frame_) cloud_view_->draw(layout.cells[i], fb, state_.settings.cloud);
      continue;
    }
    renderer_->draw(*textures_, state_.settings.views[i], layout.cells[i], layout.images[i],
                    state_.settings.blend_alpha, fb);
  }
}

bool ViewerApp::screenshot_due() const {
  if (options_.frames <= 0 || frames_shown_ < options_.frames || !frame_) return false;
  // The last frame must show every parameter change made so far (scripts rely on it), and
  // ImGui needs a couple of frames to lay out new windows. After a source switch, the new
  // source's frame; after an engine switch, the processing thread's answer (the box shows it).
  return frame_->params_generation >= latest_generation_ && gl_frames_ >= 3 &&
         pipeline_frames_ > 0 && state_.engine.pending().empty() && !scripted_calibration_pending();
}

bool ViewerApp::layout_settled() const {
  // The docked timings got the height their content wants (measured as they were drawn).
  if (!state_.settings.show_timings || !timings_window_.docked()) return true;
  return std::abs(timings_window_.wanted_height() - timings_height_used_) < 0.5f;
}

void ViewerApp::print_window_placement(float sx, float sy) const {
  auto print = [&](const char* what, const Rect& r, const char* note) {
    std::printf("%s at %.1f %.1f size %.1f %.1f%s\n", what, r.x * sx, r.y * sy, r.w * sx, r.h * sy,
                note);
  };
  if (state_.settings.show_panel) print("window panel", layout_.panel, "");
  if (state_.settings.show_timings) {
    print("window Timings", timings_window_.rect(),
          timings_window_.content_fits() ? ", content fits" : ", content clipped");
  }
  print("window Recording", recording_dock_.rect(), recording_dock_.collapsed() ? ", collapsed" : "");
  if (calibrate_ui_.open) print("window Calibrate", calibrate_dock_.rect(), "");
  if (ab_legend_rect_.w > 0) print("legend A/B", ab_legend_rect_, "");
  if (cost_curve_rect_.w > 0) {
    print("window Cost curve", cost_curve_rect_, "");
    const std::optional<PixelCosts> shown = frame_ ? frame_->result.probe : std::nullopt;
    const std::string unavailable = cost_curve_unavailable_text(state_.cost_curve, shown);
    if (!unavailable.empty()) std::printf("cost curve: %s\n", unavailable.c_str());
    if (unavailable.empty()) {
      for (const std::string& line : cost_curve_lines(*shown)) std::printf("cost curve: %s\n", line.c_str());
    }
  }
  // What the engine box shows beside the engine running: the same kind, or a refusal.
  std::printf("engine box %s, running %s%s%s\n", state_.engine.kind().c_str(),
              pipeline_->processing().status().engine.c_str(),
              state_.engine.refusal().empty() ? "" : ", ", state_.engine.refusal().c_str());
  const float line = ImGui::GetTextLineHeight();
  if (layout_.disparity_bar.w > 0) {
    print("colour bar disparity", colour_bar_stripes(layout_.disparity_bar, line), "");
  }
  if (layout_.confidence_bar.w > 0) {
    print("colour bar confidence", colour_bar_stripes(layout_.confidence_bar, line), "");
  }
  if (last_histogram_rect().w > 0) {
    const DisparityRange range = colour_range_.range();
    const ValueRange axis = colour_range_.histogram().range;
    std::printf("histogram at %.1f %.1f size %.1f %.1f, axis %.3f %.3f, colour range %.3f %.3f\n",
                last_histogram_rect().x * sx, last_histogram_rect().y * sy,
                last_histogram_rect().w * sx, last_histogram_rect().h * sy, axis.lo, axis.hi,
                range.lo, range.hi);
  }
  if (region_.statistics()) {
    for (const std::string& l : region_statistics_lines(*region_.statistics())) {
      std::printf("%s\n", l.c_str());
    }
  }
  if (!flicker_history_.empty()) std::printf("flicker %.4f px\n", flicker_history_.back());
  if (ab_.running()) {
    if (!ab_.match()) {
      std::printf("A/B: no frame of B yet\n");
    } else {
      for (const std::string& l : ab_summary_lines(*ab_.match())) std::printf("%s\n", l.c_str());
      if (frame_ && ab_.match()->a.sequence != frame_->sequence) {
        std::printf("A/B: B is behind the frame on screen\n");
      }
    }
  }
}

bool ViewerApp::write_screenshot(const FrameLayout& layout) {
  if (options_.screenshot_path.empty()) return true;
  int fb_w = 0, fb_h = 0, width = 0, height = 0;
  glfwGetFramebufferSize(window_, &fb_w, &fb_h);
  glfwGetWindowSize(window_, &width, &height);
  try {
    create_parent_folders(options_.screenshot_path, "--screenshot");
    write_png(options_.screenshot_path, read_framebuffer(fb_w, fb_h));
  } catch (const std::exception& e) {
    std::cerr << "stereoview-viewer: screenshot: " << e.what() << "\n";
    return false;
  }
  // Where each view's image lies in the PNG (framebuffer pixels), for whoever checks it.
  const float sx = width > 0 ? static_cast<float>(fb_w) / width : 1.0f;
  const float sy = height > 0 ? static_cast<float>(fb_h) / height : 1.0f;
  std::printf("screenshot %s %dx%d, frame %lld\n", options_.screenshot_path.c_str(), fb_w, fb_h,
              static_cast<long long>(frame_ ? frame_->pair.index : -1));
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    // The 3D view fills its cell; the 2D views show the image inside theirs.
    const bool cloud = state_.settings.views[i] == ViewKind::Cloud;
    const Rect& r = cloud ? layout.cells[i] : layout.images[i];
    std::printf("view %zu %s %s at %.1f %.1f size %.1f %.1f of %dx%d\n", i,
                view_kind_name(state_.settings.views[i]), cloud ? "cell" : "image", r.x * sx,
                r.y * sy, r.w * sx, r.h * sy, textures_->width(), textures_->height());
  }
  if (cloud_on_screen()) {
    std::printf("3d view: %s, path %s\n", cloud_view_->label().c_str(),
                cloud_path_name(cloud_view_->path()));
    std::printf("3d timing: %s\n",
                cloud_view_->timings().text(cloud_view_->points(), cloud_path_name(cloud_view_->path())).c_str());
    // Where the mouse (or a preset) left the camera.
    const OrbitCamera& c = cloud_view_->camera();
    std::printf("3d camera: yaw %.4f pitch %.4f distance %.5g target %.5g %.5g %.5g, %s\n", c.yaw,
                c.pitch, c.distance, c.target.x, c.target.y, c.target.z,
                c.orthographic ? "orthographic" : "perspective");
  }
  print_window_placement(sx, sy);
  std::fflush(stdout);
  return true;
}

ViewerStatus ViewerApp::make_status() const {
  ViewerStatus status;
  status.capture = pipeline_->capture().status();
  status.processing = pipeline_->processing().status();
  status.display_fps = display_rate_.per_second();
  status.frames_shown = frames_shown_;
  status.display_path = textures_->display_path();
  status.views_display_path = textures_->views_display_path();
  status.gl_renderer = gl_renderer_;
  status.gpu_memory = gpu_memory_text();
  status.image_width = textures_->width();
  status.image_height = textures_->height();
  status.frame_index = frame_ ? frame_->pair.index : -1;
  status.source_frames = pipeline_->frame_count();
  status.source_live = pipeline_->is_live();
  status.source_at_end = pipeline_->playback().at_end();
  status.cursor = cursor_;
  status.cloud_path = cloud_path_name(cloud_view_->path());
  if (cloud_on_screen()) {
    status.cloud_timing = cloud_view_->timings().text(cloud_view_->points(), status.cloud_path);
  }
  if (cloud_recorder_) {
    const CloudRecorder::Status s = cloud_recorder_->status();
    status.cloud_recording = std::to_string(s.written) + " written, " + std::to_string(s.dropped) +
                             " dropped" + (s.error.empty() ? "" : ", stopped: " + s.error);
  }
  if (frame_) {
    status.histogram = &colour_range_.histogram();
    status.colour_range = colour_range_.range();
  }
  if (region_.statistics()) status.region = &*region_.statistics();
  if (!flicker_history_.empty()) {
    status.flicker = flicker_history_.back();
    double sum = 0.0;
    for (const double f : flicker_history_) sum += f;
    status.flicker_mean = sum / static_cast<double>(flicker_history_.size());
  }
  status.timings = &timings_;
  if (const ProcessingThread* b = ab_.processing()) {
    status.processing_b = b->status();
    status.timings_b = &ab_.timings_b();
    if (ab_.match()) status.ab_match = &*ab_.match();
  }
  status.timings_docked = timings_window_.docked();
  status.recording_docked = recording_dock_.docked();
  return status;
}

void ViewerApp::draw_docked_windows(const FrameLayout& layout, const ViewerStatus& status) {
  timings_window_.draw(status, layout.timings, state_.settings.show_timings);
  // Its own height stays (h 0): collapsed it is a title bar, opened as tall as its content.
  recording_dock_.place({layout.recording.x, layout.recording.y, layout.recording.w, 0.0f});
  // First shown collapsed in its slot; the dock keeps it there until the user drags it away.
  recording_.draw(layout.recording.x, layout.recording.y, layout.views.x + 8, layout.views.y + 8);
}

bool ViewerApp::report_unrun_script_events() {
  const std::vector<ScriptEvent> left = script_.never_ran();
  for (const ScriptEvent& event : left) {
    std::cerr << "stereoview-viewer: " << never_ran_text(event) << ": the run ended after "
              << frames_shown_ << " shown frames\n";
  }
  // A scripted run (--frames) whose script did not run whole did not show what it asked for.
  return left.empty() || options_.frames <= 0;
}

int ViewerApp::run() {
  // The command line's source first: one that cannot be opened ends the run before a window
  // shows anything else.
  OpenedSource first_source;
  try {
    first_source = open_source(state_.source, state_.scene, notices_.sink());
  } catch (const std::exception& e) {
    throw RuntimeError(std::string("source: ") + e.what());
  }
  open_window();
  start_pipeline(state_.source, std::move(first_source));
  state_.add_log("display path: " + std::string(display_path_name(textures_->display_path())) +
                 ", views: " + display_path_name(textures_->views_display_path()) +
                 " (GL renderer: " + gl_renderer_ + ")");
  const auto start = Clock::now();
  auto next_frame_due = start;
  const auto frame_period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(1.0 / kMaxDisplayFps));
  int unsettled_frames = 0;  // frames the screenshot waited for the layout
  // Closing the window ends the loop, unless a --screenshot is to be taken first (below).
  const bool screenshot_when_closed = options_.frames <= 0 && !options_.screenshot_path.empty();
  while (!quit_ && (!glfwWindowShouldClose(window_) || screenshot_when_closed) && stop_signal() == 0) {
    // Sleep until the next display slot, waking early for input.
    const double wait_s = std::chrono::duration<double>(next_frame_due - Clock::now()).count();
    if (wait_s > 0.0) {
      glfwWaitEventsTimeout(wait_s);
    } else {
      glfwPollEvents();
    }
    if (Clock::now() < next_frame_due) continue;  // woken by an event: poll again until the slot
    next_frame_due = std::max(next_frame_due + frame_period, Clock::now());
    if (glfwGetWindowAttrib(window_, GLFW_ICONIFIED)) continue;

    collect_results();
    play_script(std::chrono::duration<double>(Clock::now() - start).count());

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ViewerStatus status = make_status();
    const float menu_height = draw_main_menu(state_, status);
    layout_ = compute_layout(menu_height);
    log_input();
    handle_keys();
    handle_mouse(layout_);
    update_result_parts(/*force=*/false);
    status.cursor = cursor_;
    if (state_.settings.show_panel) draw_control_panel(state_, status, layout_.panel);
    draw_docked_windows(layout_, status);
    run_calibrate_window();
    update_calibration();
    cost_curve_rect_ = draw_cost_curve(layout_);
    refresh_disparity_colours();  // a colormap or range change shows at once, paused or not
    refresh_b_colours();
    draw_view_overlays(layout_);
    ImGui::Render();
    apply_requests();  // before the screenshot check: a change made now must be waited for

    render_views(layout_);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++gl_frames_;
    display_rate_.tick();

    // A still pair (or a file at its end) brings a frame only when something changes: a timed
    // script event still may; a frame-numbered one past the last frame never runs.
    const bool ended_early = options_.frames > 0 && frames_shown_ < options_.frames &&
                             gl_frames_ >= 3 && no_frame_coming() &&
                             !script_.timed_event_pending() && !calibration_.detecting() &&
                             !(calibration_pairs_ && calibration_pairs_->size() > 0) &&
                             !scripted_calibration_pending();
    // With A/B on, the screenshot also waits for B's result of the frame on screen.
    if (screenshot_due() && ab_wait_since_s_ < 0.0) {
      ab_wait_since_s_ = seconds_now();
      // The run's last frame: A takes no more pairs (the panel still says running), so B, which
      // gets the same pairs, reaches A's frame and its errors come for it.
      if (ab_.running()) pipeline_->processing().set_paused(true);
    }
    if (screenshot_due()) settle_b_for_screenshot();
    const bool due = (screenshot_due() && ab_settled()) || ended_early;
    if (due && !layout_settled() && ++unsettled_frames <= 10) {
      glfwSwapBuffers(window_);
      continue;
    }
    if (screenshot_on_close(layout_)) {
      glfwSwapBuffers(window_);
      continue;
    }
    if (quit_) break;
    if (ended_early) {
      std::printf("the source ended after %lld shown frames (of --frames %d)\n",
                  static_cast<long long>(frames_shown_), options_.frames);
    }
    if (due) {
      if (!write_screenshot(layout_)) exit_code_ = 1;
      std::printf("shown %lld processed frames\n", static_cast<long long>(frames_shown_));
      break;
    }
    glfwSwapBuffers(window_);
    if (options_.frames > 0 && pipeline_->processing().status().input_ended && !frame_) {
      std::cerr << "stereoview-viewer: the source ended before any frame was shown\n";
      report_unrun_script_events();
      return 1;
    }
  }
  if (!report_unrun_script_events()) exit_code_ = 1;
  return exit_code_;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  ViewerApp app(options);
  return app.run();
}

}  // namespace sv
