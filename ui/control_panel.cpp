#include "ui/control_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <cstdio>

#include "src/core/algorithm_registry.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/param_table.h"
#include "ui/histogram_widget.h"
#include "ui/rate_text.h"
#include "ui/region_probe.h"
#include "ui/source_panel.h"

namespace sv {
namespace {

void help_tooltip(const std::string& text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

// The value nearest to `wanted` (searching away from `previous`, then back) that validate()
// accepts; `previous` when there is none nearby.
template <typename Apply>
bool snap_to_valid(StereoParams& params, int previous, int wanted, Apply apply) {
  const int direction = wanted >= previous ? 1 : -1;
  for (int distance = 0; distance <= 64; ++distance) {
    for (int sign : {direction, -direction}) {
      StereoParams candidate = params;
      apply(candidate, wanted + sign * distance);
      if (candidate.validate().empty()) {
        const bool changed = candidate != params;
        params = candidate;
        return changed;
      }
      if (distance == 0) break;
    }
  }
  apply(params, previous);
  return false;
}

const char* const kEngineKinds[] = {"auto", "cpu", "cuda"};

// What the engine and parameter sections edit: A's engine and parameters (the viewer's own) or,
// with A/B on and B chosen at the top of the panel, B's.
struct EditedSide {
  StereoParams& params;
  EngineChoice& engine;
  bool& params_changed;
  std::string& engine_request;
  std::string running;  // the engine its processing thread runs
  bool is_b = false;
};

EditedSide edited_side(ViewerState& state, const ViewerStatus& status) {
  if (state.ab.enabled && state.ab.edited == AbSide::B) {
    return {state.ab.params, state.ab.engine, state.requests.ab.params_changed,
            state.requests.ab.engine,
            status.processing_b ? status.processing_b->engine : std::string("starting"), true};
  }
  return {state.params, state.engine, state.requests.params_changed, state.requests.engine,
          status.processing.engine, false};
}

// A/B (issue 22): on and off, which side the panel edits, copying one side's settings to the
// other, and the two sides' timings, errors and difference.
void ab_section(ViewerState& state, const ViewerStatus& status) {
  AbSettings& ab = state.ab;
  bool enabled = ab.enabled;
  if (ImGui::Checkbox("A/B compare", &enabled)) state.requests.ab.enable = enabled;
  help_tooltip("Run a second parameter set (or algorithm, or engine), B, on the same frames: "
               "view disparity-b shows it, view difference shows |A - B| (cyan: only A has a "
               "disparity, orange: only B).");
  if (!ab.enabled) return;
  ImGui::SameLine();
  int edited = ab.edited == AbSide::A ? 0 : 1;
  ImGui::TextUnformatted(" edit");
  ImGui::SameLine();
  if (ImGui::RadioButton("A", edited == 0)) edited = 0;
  ImGui::SameLine();
  if (ImGui::RadioButton("B", edited == 1)) edited = 1;
  ab.edited = edited == 0 ? AbSide::A : AbSide::B;
  if (ImGui::Button("Copy A to B")) state.requests.ab.copy_a_to_b = true;
  ImGui::SameLine();
  if (ImGui::Button("Copy B to A")) state.requests.ab.copy_b_to_a = true;
  ImGui::SameLine();
  if (ImGui::Button("Side by side")) show_side_by_side(state.settings);
  ImGui::SameLine();
  if (ImGui::Button("Difference")) show_difference(state.settings);
  ImGui::SliderFloat("difference scale", &ab.difference_scale, 0.25f, 64.0f, "%.2f px");
  help_tooltip("|A - B| drawn at the brightest colour of the difference view.");
  if (status.processing_b) {
    ImGui::Text("B: %s, %s", status.processing_b->engine.c_str(),
                rate_text(status.processing_b->frames_per_second, status.source_frames,
                          status.source_live)
                    .c_str());
    if (!status.processing_b->error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "B: %s", status.processing_b->error.c_str());
    }
  }
  if (!status.ab_match) {
    ImGui::TextDisabled("waiting for B's first frame...");
    return;
  }
  for (const std::string& line : ab_summary_lines(*status.ab_match)) {
    ImGui::TextWrapped("%s", line.c_str());
  }
  // Each side's frame time over the recent frames, from its own history.
  auto mean_ms = [](const TimingHistory* history) {
    if (!history || history->frames() == 0) return 0.0;
    double sum = 0.0;
    const std::vector<float> times = history->frame_times_ms();
    for (const float t : times) sum += t;
    return sum / static_cast<double>(times.size());
  };
  ImGui::Text("mean frame time: A %.1f ms, B %.1f ms", mean_ms(status.timings),
              mean_ms(status.timings_b));
}

void engine_section(EditedSide side, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Engine and algorithm", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (side.is_b) ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "editing B (A/B at the top)");
  // The box shows the kind the processing thread accepted, never a refused request.
  const std::string& shown = side.engine.kind();
  if (ImGui::BeginCombo("engine", shown.c_str())) {
    for (const char* kind : kEngineKinds) {
      if (ImGui::Selectable(kind, shown == kind) && shown != kind) side.engine_request = kind;
    }
    ImGui::EndCombo();
  }
  help_tooltip("auto: CUDA when a device is present, else the CPU reference engine.");
  ImGui::Text("running: %s", side.running.c_str());
  if (!side.engine.pending().empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(switching to %s)", side.engine.pending().c_str());
  }
  if (!side.engine.refusal().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.4f, 1));
    ImGui::TextWrapped("%s", side.engine.refusal().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Text("display path: %s", display_path_name(status.display_path));
  help_tooltip("How the disparity reaches its GL texture: straight from CUDA (interop) or copied "
               "from host memory. GL renderer: " + status.gl_renderer);
  ImGui::Text("views path: %s", display_path_name(status.views_display_path));
  help_tooltip("How the left and right views reach their GL textures: straight from CUDA where "
               "the CUDA engine rectified them (a calibrated source), else from host memory.");

  if (ImGui::BeginCombo("algorithm", side.params.algorithm.c_str())) {
    for (const AlgorithmInfo& info : algorithm_registry()) {
      const bool selected = info.name == side.params.algorithm;
      if (ImGui::Selectable(info.name.c_str(), selected) && !selected) {
        side.params.algorithm = info.name;
        side.params_changed = true;
      }
      help_tooltip(info.summary);
    }
    ImGui::EndCombo();
  }
  if (const AlgorithmInfo* info = find_algorithm(side.params.algorithm)) {
    help_tooltip(info->summary);
  }
}

void parameters_section(ViewerState& state, EditedSide side) {
  if (!ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const AlgorithmInfo* info = find_algorithm(side.params.algorithm);
  if (!info) return;
  for (const std::string& key : info->parameters) {
    if (draw_param_widget(side.params, key)) side.params_changed = true;
  }
  ImGui::Separator();
  ImGui::InputText("preset file", &state.preset_path);
  help_tooltip("key = value lines, the format of the CLI's --preset.");
  if (ImGui::Button("Save")) {
    try {
      save_preset_file(state.preset_path, side.params);
      state.add_log("preset saved to " + state.preset_path);
    } catch (const std::exception& e) {
      state.add_log(std::string("error: ") + e.what());
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Load")) {
    try {
      StereoParams loaded = load_preset_file(state.preset_path, StereoParams{});
      require_valid(loaded);
      side.params = loaded;
      side.params_changed = true;
      state.add_log("preset loaded from " + state.preset_path);
    } catch (const std::exception& e) {
      state.add_log(std::string("error: ") + e.what());
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset to defaults")) {
    side.params = StereoParams{};
    side.params_changed = true;
  }
}

void display_section(ViewerState& state, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ViewerSettings& s = state.settings;
  ImGui::TextUnformatted("layout");
  for (int layout : {1, 2, 4}) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d##layout", layout);
    if (ImGui::RadioButton(label, s.layout == layout)) s.layout = layout;
  }
  for (int cell = 0; cell < s.layout; ++cell) {
    int kind = static_cast<int>(s.views[cell]);
    char label[32];
    std::snprintf(label, sizeof label, "view %d", cell + 1);
    if (ImGui::Combo(label, &kind,
                     "left\0right\0disparity\0blend\0confidence\0disparity-b (A/B)\0"
                     "difference (A/B)\0" "3d\0")) {
      s.views[cell] = static_cast<ViewKind>(kind);
    }
  }
  int map = static_cast<int>(s.colormap);
  if (ImGui::Combo("colormap", &map, "turbo\0jet\0inferno\0gray\0")) {
    s.colormap = static_cast<Colormap>(map);
  }
  int mode = static_cast<int>(s.range.mode);
  if (ImGui::Combo("range", &mode,
                   "search range\0auto (frame min..max)\0fixed\0auto, smoothed (1..99 %)\0")) {
    s.range.mode = static_cast<ColorRangeMode>(mode);
  }
  help_tooltip("Disparities at the colormap's ends: the engine's search range, the frame's own "
               "minimum and maximum, the values below (or dragged on the histogram), or the "
               "frame's 1st to 99th percentile followed smoothly over time, so colours do not "
               "jump from frame to frame.");
  if (status.histogram) {
    if (draw_histogram(*status.histogram, status.colour_range, s.colormap, s.range) &&
        s.range.mode == ColorRangeMode::Fixed) {
      char line[96];
      std::snprintf(line, sizeof line, "colour range %.2f .. %.2f px (dragged on the histogram)",
                    s.range.fixed_min, s.range.fixed_max);
      state.add_log(line);
    }
  }
  if (s.range.mode == ColorRangeMode::Fixed) {
    ImGui::DragFloatRange2("min / max", &s.range.fixed_min, &s.range.fixed_max, 0.25f, -256.0f,
                           512.0f, "%.1f px");
    if (s.range.fixed_max <= s.range.fixed_min) s.range.fixed_max = s.range.fixed_min + 1.0f;
  }
  ImGui::SliderFloat("blend", &s.blend_alpha, 0.0f, 1.0f, "%.2f");
  help_tooltip("Share of the disparity colour in the blended view.");
  // Depth: the loaded calibration's Q, else the synthetic scene's cameras, else typed values.
  const bool synthetic = state.active_source.kind == SourceKind::Synthetic;
  if (!state.calibration_summary.empty()) {
    ImGui::TextDisabled("depth from the calibration's Q");
  } else {
    if (synthetic) {
      ImGui::Checkbox("depth from the synthetic scene", &state.scene_calibration);
      help_tooltip("Use the scene's own focal length and baseline (world units as metres).");
    }
    if (!synthetic || !state.scene_calibration) {
      DepthCalibration& manual = state.manual_calibration;
      float focal = static_cast<float>(manual.focal_px);
      float baseline = static_cast<float>(manual.baseline_m);
      if (ImGui::InputFloat("focal length (px)", &focal)) manual.focal_px = std::max(0.0f, focal);
      if (ImGui::InputFloat("baseline (m)", &baseline, 0.0f, 0.0f, "%.4f")) {
        manual.baseline_m = std::max(0.0f, baseline);
      }
    }
  }
  ImGui::Text("zoom %.2fx", state.transform.zoom);
  ImGui::SameLine();
  if (ImGui::Button("Fit")) state.transform = ViewTransform{};
  help_tooltip("Mouse wheel zooms about the cursor, drag pans, double click fits.");
}

// The 3D view's camera and look; shown while a cell shows it.
void cloud_section(ViewerState& state, const ViewerStatus& status) {
  ViewerSettings& s = state.settings;
  bool shown = false;
  for (int cell = 0; cell < s.layout; ++cell) shown |= s.views[cell] == ViewKind::Cloud;
  if (!shown || !ImGui::CollapsingHeader("3D view", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (CloudViewPreset preset : {CloudViewPreset::Camera, CloudViewPreset::Front,
                                 CloudViewPreset::Top, CloudViewPreset::Side}) {
    if (preset != CloudViewPreset::Camera) ImGui::SameLine();
    if (ImGui::Button(cloud_view_preset_name(preset))) {
      state.requests.cloud_preset = static_cast<int>(preset);
    }
  }
  help_tooltip("camera: the stereo camera's own view (also a double click on the view); front, "
               "top, side: orthographic views of the whole depth range. Left drag orbits, right "
               "drag pans, the wheel zooms.");
  CloudSettings& c = s.cloud;
  int colour = static_cast<int>(c.colour);
  if (ImGui::Combo("colour by", &colour, "image\0depth\0confidence\0")) {
    c.colour = static_cast<CloudColour>(colour);
  }
  ImGui::SliderFloat("point size", &c.point_size, 1.0f, 10.0f, "%.0f px");
  ImGui::SliderFloat("min confidence", &c.min_confidence, 0.0f, 1.0f, "%.2f");
  help_tooltip("Points of a lower confidence are hidden (needs the 'confidence' parameter on).");
  ImGui::Checkbox("grid", &c.grid);
  ImGui::SameLine();
  ImGui::Checkbox("axes", &c.axes);
  ImGui::SameLine();
  ImGui::Checkbox("frustum", &c.frustum);
  ImGui::TextDisabled("3D view path: %s", status.cloud_path.c_str());
  ImGui::InputText("cloud folder", &state.cloud_record_dir);
  const bool recording = !status.cloud_recording.empty();
  if (ImGui::Button(recording ? "Stop recording clouds" : "Record clouds")) {
    state.requests.toggle_cloud_recording = true;
  }
  help_tooltip("The cloud of every shown frame, as shown, as cloud_<frame>.ply in the folder, "
               "written on a thread of its own (clouds the disk cannot keep up with are counted "
               "as dropped).");
  if (recording) {
    ImGui::SameLine();
    ImGui::TextUnformatted(status.cloud_recording.c_str());
  }
}

void region_section(ViewerState& state, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Region", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (!status.region) {
    ImGui::TextWrapped("Drag with the right mouse button on any view for the statistics of a "
                       "rectangle.");
    return;
  }
  for (const std::string& line : region_statistics_lines(*status.region)) {
    ImGui::TextWrapped("%s", line.c_str());
  }
  if (status.region->has_truth) {
    ImGui::TextDisabled("ground truth: the %s", state.active_source.kind == SourceKind::Synthetic
                                                     ? "synthetic scene's"
                                                     : "dataset's");
  } else {
    ImGui::TextDisabled("no ground truth for this source");
  }
  if (ImGui::Button("Clear region")) state.settings.region = RegionRect{};
}

void run_section(ViewerState& state, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Run and snapshot", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::Button(state.paused ? "Resume (Space)" : "Pause (Space)")) {
    state.requests.toggle_pause = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Step (Right)")) state.requests.step = true;
  ImGui::SameLine();
  if (ImGui::Button("Snapshot (S)")) state.requests.snapshot = true;
  ImGui::InputText("folder", &state.snapshot_dir);
  help_tooltip("Snapshots go here: colorized disparity PNG, float PFM, left and right PNG.");
  ImGui::Text("frame %lld, %lld shown, %dx%d", static_cast<long long>(status.frame_index),
              static_cast<long long>(status.frames_shown), status.image_width, status.image_height);
  if (!status.processing.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", status.processing.error.c_str());
  }
  const CursorReadout& c = status.cursor;
  if (c.inside) {
    ImGui::Text("cursor %s", cursor_readout_text(c, state.settings.calibration).c_str());
  } else {
    ImGui::TextDisabled("cursor: outside the image");
  }
}

}  // namespace

bool draw_param_widget(StereoParams& params, const std::string& key) {
  const ParamDescriptor* d = find_param(key);
  if (!d) return false;
  const std::string label = d->key;
  bool changed = false;
  switch (d->kind) {
    case ParamKind::Int: {
      const int previous = std::stoi(d->get(params));
      int value = previous;
      const int lo = static_cast<int>(d->min), hi = static_cast<int>(d->max);
      const bool edited = hi - lo > 1000
                              ? ImGui::DragInt(label.c_str(), &value, 1.0f, lo, hi)
                              : ImGui::SliderInt(label.c_str(), &value, lo, hi);
      if (edited && value != previous) {
        changed = snap_to_valid(params, previous, value, [&](StereoParams& p, int v) {
          d->set(p, std::to_string(v));
        });
      }
      break;
    }
    case ParamKind::Float: {
      float value = std::stof(d->get(params));
      const float previous = value;
      if (ImGui::SliderFloat(label.c_str(), &value, static_cast<float>(d->min),
                             static_cast<float>(d->max)) &&
          value != previous) {
        StereoParams candidate = params;
        d->set(candidate, std::to_string(value));
        if (candidate.validate().empty()) {
          params = candidate;
          changed = true;
        }
      }
      break;
    }
    case ParamKind::Bool: {
      bool value = d->get(params) == "true";
      if (ImGui::Checkbox(label.c_str(), &value)) {
        StereoParams candidate = params;
        d->set(candidate, value ? "true" : "false");
        if (candidate.validate().empty()) {
          params = candidate;
          changed = true;
        }
      }
      break;
    }
    case ParamKind::Choice: {
      const std::string current = d->get(params);
      if (ImGui::BeginCombo(label.c_str(), current.c_str())) {
        for (const std::string& choice : d->choices) {
          if (ImGui::Selectable(choice.c_str(), choice == current) && choice != current) {
            StereoParams candidate = params;
            d->set(candidate, choice);
            if (candidate.validate().empty()) {
              params = candidate;
              changed = true;
            }
          }
        }
        ImGui::EndCombo();
      }
      break;
    }
  }
  help_tooltip(d->help);
  return changed;
}

float draw_main_menu(ViewerState& state, const ViewerStatus& status) {
  float height = 0.0f;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("File")) {
      if (ImGui::MenuItem("Snapshot", "S")) state.requests.snapshot = true;
      if (ImGui::MenuItem("Quit", "Q / Esc")) state.requests.quit = true;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      if (ImGui::MenuItem("Control panel", "H", state.settings.show_panel)) {
        state.settings.show_panel = !state.settings.show_panel;
      }
      if (ImGui::MenuItem("Timings", "T", state.settings.show_timings)) {
        state.settings.show_timings = !state.settings.show_timings;
      }
      if (ImGui::MenuItem("Dock timings under the views", nullptr, false, !status.timings_docked)) {
        state.requests.dock_timings = true;
        state.settings.show_timings = true;
      }
      if (ImGui::MenuItem("Dock the Recording window", nullptr, false, !status.recording_docked)) {
        state.requests.dock_recording = true;
      }
      if (ImGui::MenuItem("Cost curve", "P", state.cost_curve.open())) {
        state.cost_curve.set_open(!state.cost_curve.open());
      }
      if (ImGui::MenuItem("Fullscreen", "F11")) state.requests.toggle_fullscreen = true;
      if (ImGui::MenuItem("Fit image")) state.transform = ViewTransform{};
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      ImGui::TextUnformatted("Keys");
      ImGui::Separator();
      ImGui::TextUnformatted("Space        pause / resume");
      ImGui::TextUnformatted("Right arrow  step one frame (paused)");
      ImGui::TextUnformatted("S            snapshot");
      ImGui::TextUnformatted("R            record / stop");
      ImGui::TextUnformatted("H            hide / show the panel");
      ImGui::TextUnformatted("T            hide / show the timings");
      ImGui::TextUnformatted("P            the Cost curve window (a click pins)");
      ImGui::TextUnformatted("C            the Calibrate window");
      ImGui::TextUnformatted("V            capture a calibration view");
      ImGui::TextUnformatted("F11          fullscreen");
      ImGui::TextUnformatted("Q, Esc       quit");
      ImGui::Separator();
      ImGui::TextUnformatted("Mouse wheel zooms about the cursor, drag pans,");
      ImGui::TextUnformatted("double click fits the image.");
      ImGui::TextUnformatted("Drag a docked window by its title to float it;");
      ImGui::TextUnformatted("View > Dock puts it back.");
      ImGui::EndMenu();
    }
    ImGui::TextDisabled("  %s", state.paused ? "paused" : "");
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return height;
}

void draw_control_panel(ViewerState& state, const ViewerStatus& status, const Rect& area) {
  ImGui::SetNextWindowPos(ImVec2(area.x, area.y));
  ImGui::SetNextWindowSize(ImVec2(area.w, area.h));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("stereoview", nullptr, flags)) {
    ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
    ab_section(state, status);
    draw_source_section(state, status);
    engine_section(edited_side(state, status), status);
    // What is seen (colours, histogram, region) before the long parameter list.
    display_section(state, status);
    cloud_section(state, status);
    region_section(state, status);
    parameters_section(state, edited_side(state, status));
    run_section(state, status);
    if (ImGui::CollapsingHeader("Log", ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const std::string& line : state.log) ImGui::TextWrapped("%s", line.c_str());
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

}  // namespace sv
