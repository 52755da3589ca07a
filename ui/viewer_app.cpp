#include "ui/viewer_app.h"

// The GL thread's frame loop, in the order of Dear ImGui's GLFW + OpenGL3 example: poll events,
// collect the newest result (never waiting for the engine), play the script, build the panels,
// draw the views and the UI, swap. Everything GL lives on this thread.

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "src/app/notice_collector.h"
#include "src/app/param_script.h"
#include "src/app/source_factory.h"
#include "src/app/stop_signals.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/param_table.h"
#include "src/io/png_io.h"
#include "ui/colour_bar.h"
#include "ui/control_panel.h"
#include "ui/frame_pipeline.h"
#include "ui/gpu_memory.h"
#include "ui/shader_program.h"
#include "ui/recording_panel.h"
#include "ui/snapshot.h"
#include "ui/view_renderer.h"
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

// Where everything goes in the window this frame (window coordinates).
struct FrameLayout {
  Rect panel;
  Rect views;       // the area the view cells share
  Rect colour_bar;  // w == 0 when no view shows disparities
  std::vector<Rect> cells;
  std::vector<Rect> images;  // the image inside each cell, after zoom and pan
};

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
  void seek(int64_t index);
  bool source_exhausted() const;
  void draw_epipolar_lines(const FrameLayout& layout);
  void collect_results();
  void show_views(const ProcessedFrame& frame);
  void play_script(double seconds);
  void apply_script_event(const ScriptEvent& event);
  void refresh_disparity_colours();
  FrameLayout compute_layout(float menu_height) const;
  void handle_keys();
  void handle_mouse(const FrameLayout& layout);
  void draw_view_overlays(const FrameLayout& layout);
  void refresh_confidence_view(size_t shown_views);
  void apply_requests();
  void render_views(const FrameLayout& layout);
  bool screenshot_due() const;
  bool write_screenshot(const FrameLayout& layout);
  ViewerStatus make_status() const;
  void update_calibration();

  const ViewerOptions options_;
  ViewerState state_;
  GLFWwindow* window_ = nullptr;
  bool imgui_ready_ = false;
  std::unique_ptr<ViewTextures> textures_;
  std::unique_ptr<ViewRenderer> renderer_;
  std::unique_ptr<FramePipeline> pipeline_;
  NoticeCollector notices_;                // the sources' notices, from the capture thread
  std::optional<StereoGeometry> geometry_;  // the running source's calibration Q
  int64_t pipeline_frames_ = 0;            // frames shown from the running pipeline
  // After a seek, results of pairs read before it are skipped until the target shows (a few at
  // most: the queue's and the one being computed).
  int64_t awaiting_index_ = -1;
  int awaiting_skipped_ = 0;
  ScriptPlayer script_;
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
  int64_t confidence_sequence_ = -1;  // the frame whose confidence the texture holds
  int64_t frames_shown_ = 0;
  uint64_t latest_generation_ = 0;
  int64_t gl_frames_ = 0;
  bool quit_ = false;
  bool dragging_ = false;
  bool mouse_moved_ = false;
  int exit_code_ = 0;
  CursorReadout cursor_;
  // Saved window placement while fullscreen.
  int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0;
  // Recording (R key, its window); after state_, whose log it writes.
  RecordingPanel recording_{[this](const std::string& line) { state_.add_log(line); }};
  std::optional<StereoGeometry> shown_geometry() const {
    return displayed_geometry(geometry_, state_.active_source.kind == SourceKind::Synthetic, state_.scene);
  }
};

ViewerApp::ViewerApp(const ViewerOptions& options) : options_(options) {
  state_.settings = options.settings;
  state_.params = options.params;
  state_.engine_kind = options.engine;
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
  script_ = ScriptPlayer(options.script);
}

ViewerApp::~ViewerApp() {
  pipeline_.reset();  // threads first: they hold no GL objects, but the log goes to state_
#ifdef STEREOVIEW_HAS_CUDA_GL
  interop_views_.reset();  // unregistered while the textures and the context exist
  interop_view_.reset();
#endif
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
  glfwSwapInterval(1);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  gl_renderer_ = renderer ? renderer : "unknown";

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed each frame; nothing to remember
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
}

bool ViewerApp::switch_source(const SourceChoice& choice, int64_t seek_to) {
  std::unique_ptr<FramePipeline> pipeline;
  OpenedSource opened;
  try {
    opened = open_source(choice, state_.scene, notices_.sink());
    if (seek_to > 0 && !opened.source->is_live() && opened.source->seek(seek_to)) {
      opened.first.reset();  // the pair read to check the source is not the one wanted
    }
    pipeline = std::make_unique<FramePipeline>(std::move(opened.source), std::move(opened.first),
                                               state_.loop, state_.realtime, notices_.sink(),
                                               state_.engine_kind, state_.params, interop_);
  } catch (const std::exception& e) {
    state_.source_error = e.what();
    state_.add_log(std::string("error: source: ") + e.what() +
                   (pipeline_ ? " (staying on the running source)" : ""));
    return false;
  }
  pipeline_ = std::move(pipeline);  // the old pipeline's threads stop here
  pipeline_->processing().set_paused(state_.paused);
  if (state_.paused) pipeline_->processing().step();  // show the new source's first frame
  state_.active_source = choice;
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
  state_.add_log("source: " + pipeline_->capture().status().source);
  if (!opened.calibration_summary.empty()) {
    state_.add_log("depth from the calibration: " + opened.calibration_summary);
  }
  return true;
}

void ViewerApp::seek(int64_t index) {
  if (pipeline_->is_live() || pipeline_->frame_count() <= 0) return;
  index = std::max<int64_t>(0, std::min(index, pipeline_->frame_count() - 1));
  pipeline_->playback().request_seek(index);
  awaiting_index_ = index;
  awaiting_skipped_ = 0;
  if (state_.paused) pipeline_->processing().step();
}

bool ViewerApp::source_exhausted() const {
  const ProcessingStatus processing = pipeline_->processing().status();
  if (processing.input_ended) return true;
  // A file holding at its end: done once every pair it delivered was computed and collected.
  return pipeline_->playback().at_end() && frame_ &&
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

void ViewerApp::collect_results() {
  ProcessingThread& processing = pipeline_->processing();
  for (const std::string& message : processing.take_messages()) state_.add_log(message);
  for (const std::string& notice : notices_.take()) {
    state_.add_log("source: " + notice);
    state_.source_notices.push_back(notice);
    while (state_.source_notices.size() > 4) state_.source_notices.pop_front();
  }
  std::optional<ProcessedFrame> frame = processing.take_latest();
  if (!frame) return;
  if (awaiting_index_ >= 0) {
    if (frame->pair.index != awaiting_index_ && ++awaiting_skipped_ <= 4) {
      if (state_.paused) processing.step();  // paused: fetch the next pair, up to the target
      return;
    }
    awaiting_index_ = -1;
  }
  const ImageRgb8& left = frame->pair.left;
  textures_->ensure_size(left.width(), left.height());
  show_views(*frame);
  timings_.add(frame->result.timings, frame->processing_ms);
  frame_ = std::move(frame);
  ++frames_shown_;
  ++pipeline_frames_;
  refresh_disparity_colours();
  recording_.add_frame(*frame_);
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

void ViewerApp::refresh_disparity_colours() {
  if (!frame_) return;
  const DisparityRange range =
      display_range(state_.settings.range, frame_->params, frame_->result.disparity);
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
    const DisparityRange range =
        display_range(state_.settings.range, frame_->params, frame_->result.disparity);
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
    case ScriptAction::Engine:
      state_.engine_kind = event.value;
      state_.requests.engine_changed = true;
      break;
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

FrameLayout ViewerApp::compute_layout(float menu_height) const {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  FrameLayout layout;
  const float w = static_cast<float>(width), h = static_cast<float>(height) - menu_height;
  const float panel_w = state_.settings.show_panel ? std::min(430.0f * ui_scale_, 0.5f * w) : 0.0f;
  layout.panel = {0.0f, menu_height, panel_w, h};
  bool any_disparity = false;
  for (int i = 0; i < state_.settings.layout; ++i) {
    any_disparity = any_disparity || shows_disparity(state_.settings.views[i]);
  }
  const float bar_w = any_disparity ? colour_bar_width(state_.settings.calibration) : 0.0f;
  const float gap = 4.0f * ui_scale_;
  layout.views = {panel_w + gap, menu_height + gap, std::max(1.0f, w - panel_w - bar_w - 2 * gap),
                  std::max(1.0f, h - 2 * gap)};
  layout.colour_bar = {w - bar_w, menu_height, bar_w, h};
  layout.cells = layout_cells(layout.views, state_.settings.layout, gap);
  const int iw = textures_->width(), ih = textures_->height();
  for (const Rect& cell : layout.cells) layout.images.push_back(image_rect(cell, iw, ih, state_.transform));
  return layout;
}

void ViewerApp::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) state_.requests.toggle_pause = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) state_.requests.step = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) state_.requests.snapshot = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) recording_.request_toggle();
  if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) state_.settings.show_panel = !state_.settings.show_panel;
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) state_.requests.toggle_fullscreen = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_Q, false) || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
    state_.requests.quit = true;
  }
}

void ViewerApp::handle_mouse(const FrameLayout& layout) {
  const ImGuiIO& io = ImGui::GetIO();
  const int iw = textures_->width(), ih = textures_->height();
  cursor_ = CursorReadout{};
  if (!ImGui::IsMouseDown(0)) dragging_ = false;
  if (io.WantCaptureMouse && !dragging_) return;
  const float mx = io.MousePos.x, my = io.MousePos.y;
  // A pointer that never moved (parked where the window opened, as under Xvfb) gets no tooltip.
  if (ImGui::IsMousePosValid() && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    mouse_moved_ = true;
  }
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    const Rect& cell = layout.cells[i];
    if (!cell.contains(mx, my) && !dragging_) continue;
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
    if (frame_ && ix >= 0 && iy >= 0 && ix < iw && iy < ih &&
        frame_->result.disparity.same_size(iw, ih)) {
      cursor_.inside = true;
      cursor_.x = static_cast<int>(ix);
      cursor_.y = static_cast<int>(iy);
      cursor_.disparity = frame_->result.disparity.at(cursor_.x, cursor_.y);
      const ImageF32& confidence = frame_->result.confidence;
      if (confidence.same_size(iw, ih)) cursor_.confidence = confidence.at(cursor_.x, cursor_.y);
    }
    break;
  }
}

void ViewerApp::draw_view_overlays(const FrameLayout& layout) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    const Rect& cell = layout.cells[i];
    draw->AddRect(ImVec2(cell.x, cell.y), ImVec2(cell.x + cell.w, cell.y + cell.h),
                  IM_COL32(70, 70, 70, 255));
    const bool no_confidence = state_.settings.views[i] == ViewKind::Confidence && frame_ &&
                               frame_->result.confidence.empty();
    const char* name = no_confidence ? "confidence (off: turn on 'confidence' in the panel)"
                                     : view_kind_name(state_.settings.views[i]);
    draw->AddRectFilled(ImVec2(cell.x, cell.y),
                        ImVec2(cell.x + ImGui::CalcTextSize(name).x + 8.0f,
                               cell.y + ImGui::GetTextLineHeightWithSpacing()),
                        IM_COL32(0, 0, 0, 160));
    draw->AddText(ImVec2(cell.x + 4.0f, cell.y + 1.0f), IM_COL32(255, 255, 255, 255), name);
  }
  if (state_.settings.epipolar_lines) draw_epipolar_lines(layout);
  if (layout.colour_bar.w > 0.0f && frame_) {
    draw_colour_bar(draw, layout.colour_bar, state_.settings.colormap,
                    display_range(state_.settings.range, frame_->params, frame_->result.disparity),
                    state_.settings.calibration);
  }
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

void ViewerApp::draw_epipolar_lines(const FrameLayout& layout) {
  constexpr int kLines = 8;
  const int ih = textures_->height();
  if (ih <= 0) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    if (state_.settings.views[i] == ViewKind::Disparity) continue;
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
  if (requests.engine_changed) processing.request_engine(state_.engine_kind);
  if (requests.toggle_pause) {
    state_.paused = !state_.paused;
    processing.set_paused(state_.paused);
  }
  if (requests.step) {
    state_.paused = true;
    processing.set_paused(true);
    processing.step();
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
      } catch (const std::exception& e) {
        state_.add_log(std::string("error: snapshot: ") + e.what());
      }
    }
  }
  const CaptureStatus capture = pipeline_->capture().status();
  recording_.update(frame_ ? &*frame_ : nullptr,
                    {capture.source, recording_frame_rate(capture), state_.settings.colormap,
                     state_.active_source.options.calib_path, shown_geometry()});
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
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    renderer_->draw(*textures_, state_.settings.views[i], layout.cells[i], layout.images[i],
                    state_.settings.blend_alpha, fb);
  }
}

bool ViewerApp::screenshot_due() const {
  if (options_.frames <= 0 || frames_shown_ < options_.frames || !frame_) return false;
  // The last frame must show every parameter change made so far (scripts rely on it), and
  // ImGui needs a couple of frames to lay out new windows.
  // After a source switch, the new source's frame.
  return frame_->params_generation >= latest_generation_ && gl_frames_ >= 3 &&
         pipeline_frames_ > 0;
}

bool ViewerApp::write_screenshot(const FrameLayout& layout) {
  if (options_.screenshot_path.empty()) return true;
  int fb_w = 0, fb_h = 0, width = 0, height = 0;
  glfwGetFramebufferSize(window_, &fb_w, &fb_h);
  glfwGetWindowSize(window_, &width, &height);
  try {
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
    const Rect& r = layout.images[i];
    std::printf("view %zu %s image at %.1f %.1f size %.1f %.1f of %dx%d\n", i,
                view_kind_name(state_.settings.views[i]), r.x * sx, r.y * sy, r.w * sx, r.h * sy,
                textures_->width(), textures_->height());
  }
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
  status.timings = &timings_;
  return status;
}

int ViewerApp::run() {
  open_window();
  if (!switch_source(state_.source)) {
    // A bad source on the command line: say so (panel and stderr) and show the synthetic scene.
    const std::string error = state_.source_error;
    SourceChoice synthetic;
    synthetic.options = options_.source;
    synthetic.kind = SourceKind::Synthetic;
    if (!switch_source(synthetic)) throw RuntimeError(state_.source_error);
    state_.source_error = error;
  }
  state_.add_log("display path: " + std::string(display_path_name(textures_->display_path())) +
                 ", views: " + display_path_name(textures_->views_display_path()) +
                 " (GL renderer: " + gl_renderer_ + ")");
  const auto start = Clock::now();
  auto next_frame_due = start;
  const auto frame_period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(1.0 / kMaxDisplayFps));
  while (!quit_ && !glfwWindowShouldClose(window_) && stop_signal() == 0) {
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
    const float menu_height = draw_main_menu(state_);
    const FrameLayout layout = compute_layout(menu_height);
    handle_keys();
    handle_mouse(layout);
    if (state_.settings.show_panel) draw_control_panel(state_, make_status(), layout.panel);
    recording_.draw(layout.views.x + 10, layout.views.y + 40, layout.views.x + 10, layout.views.y + 8);
    update_calibration();
    refresh_disparity_colours();  // a colormap or range change shows at once, paused or not
    draw_view_overlays(layout);
    ImGui::Render();
    apply_requests();  // before the screenshot check: a change made now must be waited for

    render_views(layout);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++gl_frames_;
    display_rate_.tick();

    const bool ended_early = options_.frames > 0 && frames_shown_ < options_.frames &&
                             pipeline_frames_ > 0 && gl_frames_ >= 3 && source_exhausted();
    if (ended_early) {
      std::printf("the source ended after %lld shown frames (of --frames %d)\n",
                  static_cast<long long>(frames_shown_), options_.frames);
    }
    if (screenshot_due() || ended_early) {
      if (!write_screenshot(layout)) exit_code_ = 1;
      std::printf("shown %lld processed frames\n", static_cast<long long>(frames_shown_));
      break;
    }
    glfwSwapBuffers(window_);
    if (options_.frames > 0 && pipeline_->processing().status().input_ended && !frame_) {
      std::cerr << "stereoview-viewer: the source ended before any frame was shown\n";
      return 1;
    }
  }
  return exit_code_;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  ViewerApp app(options);
  return app.run();
}

}  // namespace sv
