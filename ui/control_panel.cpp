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

void engine_section(ViewerState& state, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Engine and algorithm", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // The box shows the kind the processing thread accepted, never a refused request.
  const std::string& shown = state.engine.kind();
  if (ImGui::BeginCombo("engine", shown.c_str())) {
    for (const char* kind : kEngineKinds) {
      if (ImGui::Selectable(kind, shown == kind) && shown != kind) state.requests.engine = kind;
    }
    ImGui::EndCombo();
  }
  help_tooltip("auto: CUDA when a device is present, else the CPU reference engine.");
  ImGui::Text("running: %s", status.processing.engine.c_str());
  if (!state.engine.pending().empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(switching to %s)", state.engine.pending().c_str());
  }
  if (!state.engine.refusal().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.4f, 1));
    ImGui::TextWrapped("%s", state.engine.refusal().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Text("display path: %s", display_path_name(status.display_path));
  help_tooltip("How the disparity reaches its GL texture: straight from CUDA (interop) or copied "
               "from host memory. GL renderer: " + status.gl_renderer);
  ImGui::Text("views path: %s", display_path_name(status.views_display_path));
  help_tooltip("How the left and right views reach their GL textures: straight from CUDA where "
               "the CUDA engine rectified them (a calibrated source), else from host memory.");

  if (ImGui::BeginCombo("algorithm", state.params.algorithm.c_str())) {
    for (const AlgorithmInfo& info : algorithm_registry()) {
      const bool selected = info.name == state.params.algorithm;
      if (ImGui::Selectable(info.name.c_str(), selected) && !selected) {
        state.params.algorithm = info.name;
        state.requests.params_changed = true;
      }
      help_tooltip(info.summary);
    }
    ImGui::EndCombo();
  }
  if (const AlgorithmInfo* info = find_algorithm(state.params.algorithm)) {
    help_tooltip(info->summary);
  }
}

void parameters_section(ViewerState& state) {
  if (!ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const AlgorithmInfo* info = find_algorithm(state.params.algorithm);
  if (!info) return;
  for (const std::string& key : info->parameters) {
    if (draw_param_widget(state.params, key)) state.requests.params_changed = true;
  }
  ImGui::Separator();
  ImGui::InputText("preset file", &state.preset_path);
  help_tooltip("key = value lines, the format of the CLI's --preset.");
  if (ImGui::Button("Save")) {
    try {
      save_preset_file(state.preset_path, state.params);
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
      state.params = loaded;
      state.requests.params_changed = true;
      state.add_log("preset loaded from " + state.preset_path);
    } catch (const std::exception& e) {
      state.add_log(std::string("error: ") + e.what());
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset to defaults")) {
    state.params = StereoParams{};
    state.requests.params_changed = true;
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
    if (ImGui::Combo(label, &kind, "left\0right\0disparity\0blend\0confidence\0" "3d\0")) {
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
    ImGui::TextDisabled("ground truth: the synthetic scene");
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
    draw_source_section(state, status);
    engine_section(state, status);
    // What is seen (colours, histogram, region) before the long parameter list.
    display_section(state, status);
    cloud_section(state, status);
    region_section(state, status);
    parameters_section(state);
    run_section(state, status);
    if (ImGui::CollapsingHeader("Log", ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const std::string& line : state.log) ImGui::TextWrapped("%s", line.c_str());
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

}  // namespace sv
