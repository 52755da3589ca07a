#include "ui/source_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "ui/elided_path.h"

namespace sv {
namespace {

const ImVec4 kErrorColour(1.0f, 0.4f, 0.4f, 1.0f);
const ImVec4 kNoticeColour(1.0f, 0.85f, 0.4f, 1.0f);

void help_tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// A path the field is too narrow for shows its start and its file name (elided_path) until it is
// clicked for editing; its tooltip gives the whole path.
void path_field(const char* label, const char* hint, std::string& value, const char* help) {
  static ImGuiID editing = 0;  // the field being edited, until it loses the focus
  static bool focus_pending = false;
  const ImGuiID id = ImGui::GetID(label);
  const float width = ImGui::CalcItemWidth();
  const float text_room = width - 2.0f * ImGui::GetStyle().FramePadding.x;
  const bool fits = ImGui::CalcTextSize(value.c_str()).x <= text_room;
  const std::string tooltip = value.empty() ? help : value + "\n\n" + help;
  if (editing != id && !fits) {
    const size_t chars = static_cast<size_t>(text_room / ImGui::CalcTextSize("x").x);
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.0f, 0.5f));
    const bool clicked = ImGui::Button((elided_path(value, chars) + "##" + label).c_str(), ImVec2(width, 0.0f));
    ImGui::PopStyleVar();
    help_tooltip(tooltip.c_str());
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextUnformatted(label);
    if (clicked) {
      editing = id;
      focus_pending = true;
    }
    return;
  }
  if (editing == id && focus_pending) {
    ImGui::SetKeyboardFocusHere();
    focus_pending = false;
  }
  ImGui::InputTextWithHint(label, hint, &value);
  help_tooltip(tooltip.c_str());
  if (editing == id && ImGui::IsItemDeactivated()) editing = 0;
}

void camera_settings(CliOptions& o, bool uvc) {
  int size[2] = {o.camera_width, o.camera_height};
  if (ImGui::InputInt2("frame size", size)) {
    o.camera_width = std::clamp(size[0], 0, 8192);
    o.camera_height = std::clamp(size[1], 0, 8192);
  }
  help_tooltip("Requested frame size (a stereo webcam's packed frame); 0 0: the camera's own.");
  float fps = static_cast<float>(o.camera_fps);
  if (ImGui::InputFloat("frame rate", &fps, 0.0f, 0.0f, "%.1f")) {
    o.camera_fps = std::clamp(static_cast<double>(fps), 0.0, 1000.0);
  }
  help_tooltip("Requested frames per second; 0: the camera's own.");
  int format = o.camera_format == "MJPG" ? 1 : o.camera_format == "YUYV" ? 2 : 0;
  if (ImGui::Combo("pixel format", &format, "camera's own\0MJPG\0YUYV\0")) {
    o.camera_format = format == 1 ? "MJPG" : format == 2 ? "YUYV" : "";
  }
  if (uvc) {
    ImGui::InputInt("exposure (-1 auto)", &o.exposure);
    help_tooltip("Manual exposure in 100 us units, where the camera offers it; -1: automatic.");
    o.exposure = std::clamp(o.exposure, -1, 1000000);
    ImGui::InputInt("gain (-1 as is)", &o.gain);
    o.gain = std::clamp(o.gain, -1, 65535);
  }
}

void choice_fields(ViewerState& state) {
  SourceChoice& choice = state.source;
  CliOptions& o = choice.options;
  switch (choice.kind) {
    case SourceKind::Synthetic: {
      int size[2] = {state.scene.width, state.scene.height};
      ImGui::InputInt2("size", size);
      help_tooltip("Synthetic scene size in pixels.");
      state.scene.width = std::clamp(size[0], 16, 8192);
      state.scene.height = std::clamp(size[1], 16, 8192);
      ImGui::InputInt("nearest disparity", &state.scene.max_disparity);
      help_tooltip("The synthetic scene's nearest surface has a disparity just below this.");
      state.scene.max_disparity = std::clamp(state.scene.max_disparity, 1, 1024);
      break;
    }
    case SourceKind::ImagePair:
      path_field("left", "left.png", o.left_path, "The left image (PNG, JPEG, PGM, PPM...).");
      path_field("right", "right.png", o.right_path, "The right image, of the same size.");
      break;
    case SourceKind::TwoVideos:
      path_field("left", "left.mp4", o.left_path, "The left video (avi, mp4, mkv...).");
      path_field("right", "right.mp4", o.right_path,
                 "The right video; two lengths stop at the shorter, with a notice.");
      break;
    case SourceKind::ImageSequence:
      path_field("left", "left_%04d.png or a folder", o.left_path,
                 "A printf pattern (left_%04d.png) or a folder of images, in name order.");
      path_field("right", "right_%04d.png or a folder", o.right_path,
                 "The right views, the same way.");
      break;
    case SourceKind::SideBySideVideo:
    case SourceKind::TopBottomVideo:
      path_field("video", "stereo.mp4", o.packed_video_path,
                 "One video holding both views, split down the middle (side by side) or across "
                 "(top-bottom).");
      break;
    case SourceKind::Dataset:
      path_field("folder", "Middlebury or KITTI folder", o.dataset_dir,
                 "A Middlebury 2001/2003/2014 or KITTI folder, or a folder of them.");
      break;
    case SourceKind::Camera: {
      int left = o.cameras.empty() ? 0 : o.cameras[0];
      bool two = o.cameras.size() > 1;
      int right = two ? o.cameras[1] : left + 1;
      ImGui::InputInt("camera", &left);
      help_tooltip("/dev/videoN: a stereo webcam delivering side-by-side frames, or the left "
                   "camera of two.");
      ImGui::Checkbox("second camera", &two);
      help_tooltip("Two cameras, paired by nearest timestamp.");
      if (two) ImGui::InputInt("right camera", &right);
      o.cameras = {std::clamp(left, 0, 255)};
      if (two) o.cameras.push_back(std::clamp(right, 0, 255));
      camera_settings(o, false);
      break;
    }
    case SourceKind::Uvc:
      path_field("device", "VID:PID[:SERIAL]", o.uvc_device,
                 "Vendor and product id in hex, e.g. 2560:c128, and a serial number if several.");
      camera_settings(o, true);
      break;
  }
  if (choice.kind != SourceKind::Synthetic) {
    ImGui::Checkbox("swap views", &o.swap_views);
    help_tooltip("The view named left comes from the right camera: use it as the right view and "
                 "the other as the left (--swap-views).");
    path_field("calibration", "calib.yaml (optional)", o.calib_path,
               "OpenCV YAML/XML calibration (K1 D1 K2 D2 R T, or R1 R2 P1 P2 Q): rectifies the "
               "input; its Q gives depth. Two files as intrinsics.yml,extrinsics.yml, or their "
               "folder. Also a ROS camera_info pair (left.yaml,right.yaml), a Kalibr camchain, "
               "an ASL pair (cam0/sensor.yaml,cam1/sensor.yaml) or a ZED .conf.");
    if (!o.calib_path.empty()) {
      float alpha = static_cast<float>(std::max(0.0, o.rectify_alpha));
      if (ImGui::SliderFloat("rectify alpha", &alpha, 0.0f, 1.0f, "%.2f")) o.rectify_alpha = alpha;
      help_tooltip("0 keeps only valid pixels, 1 every source pixel (black borders).");
    }
  }
}

void running_status(ViewerState& state, const ViewerStatus& status) {
  ImGui::TextWrapped("running: %s", status.capture.source.c_str());
  if (!state.source_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    ImGui::TextWrapped("could not open: %s", state.source_error.c_str());
    ImGui::PopStyleColor();
  }
  if (!status.capture.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    if (status.source_live) {
      ImGui::TextWrapped("source error: %s (retried %lld times, every 0.5 s)",
                         status.capture.error.c_str(),
                         static_cast<long long>(status.capture.retries));
    } else {
      ImGui::TextWrapped("source error: %s", status.capture.error.c_str());
    }
    ImGui::PopStyleColor();
  } else if (status.capture.retries > 0) {
    ImGui::TextDisabled("recovered after %lld retries",
                        static_cast<long long>(status.capture.retries));
  }
  if (status.source_live && status.capture.dropped > 0) {
    ImGui::Text("dropped %llu pairs (the engine is slower than the camera)",
                static_cast<unsigned long long>(status.capture.dropped));
  }
  if (!state.source_notices.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kNoticeColour);
    for (const std::string& notice : state.source_notices) ImGui::TextWrapped("%s", notice.c_str());
    ImGui::PopStyleColor();
  }
}

void playback_controls(ViewerState& state, const ViewerStatus& status) {
  if (status.source_live) return;
  if (status.source_frames > 0) {
    const int last = static_cast<int>(std::min<int64_t>(status.source_frames - 1, 1 << 30));
    // Shown from 1, as players count; seek_to is the source's index (from 0).
    int position = static_cast<int>(std::clamp<int64_t>(status.frame_index, 0, last)) + 1;
    ImGui::Text("frame %d / %lld%s", position, static_cast<long long>(status.source_frames),
                status.source_at_end ? " (end)" : "");
    if (ImGui::SliderInt("position", &position, 1, last + 1, "%d")) {
      state.requests.seek_to = position - 1;
    }
    help_tooltip("Drag to scrub through the file (paused or playing).");
    if (ImGui::Checkbox("loop", &state.loop)) state.requests.playback_changed = true;
    help_tooltip("Start again at the first frame after the last.");
    ImGui::SameLine();
  }
  if (ImGui::Checkbox("play at the file's rate", &state.realtime)) {
    state.requests.playback_changed = true;
  }
  help_tooltip("Off: as fast as the engine takes the pairs.");
}

void calibration_controls(ViewerState& state) {
  if (!state.active_source.options.calib_path.empty() &&
      state.active_source.kind != SourceKind::Synthetic) {
    int rectified = state.active_source.rectify ? 1 : 0;
    bool changed = ImGui::RadioButton("raw", &rectified, 0);
    ImGui::SameLine();
    changed = ImGui::RadioButton("rectified", &rectified, 1) || changed;
    if (changed && (rectified == 1) != state.active_source.rectify) {
      state.active_source.rectify = rectified == 1;
      state.source.rectify = state.active_source.rectify;
      state.requests.reopen_source = true;
    }
    help_tooltip("Match the raw views or the views rectified with the calibration.");
    ImGui::SameLine();
  }
  ImGui::Checkbox("epipolar lines", &state.settings.epipolar_lines);
  help_tooltip("Horizontal lines across the left and right views: after rectification a point "
               "sits on the same line in both.");
  if (!state.calibration_summary.empty()) {
    ImGui::TextDisabled("calibration: %s", state.calibration_summary.c_str());
  }
}

}  // namespace

void draw_source_section(ViewerState& state, const ViewerStatus& status) {
  if (!ImGui::CollapsingHeader("Source", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int kind = static_cast<int>(state.source.kind);
  if (ImGui::BeginCombo("source", source_kind_name(state.source.kind))) {
    for (int k = 0; k < kSourceKindCount; ++k) {
      if (ImGui::Selectable(source_kind_name(static_cast<SourceKind>(k)), k == kind)) kind = k;
    }
    ImGui::EndCombo();
  }
  help_tooltip("Where stereo pairs come from; Open switches to it (the viewer stays on the "
               "running source if it cannot be opened).");
  state.source.kind = static_cast<SourceKind>(kind);
  choice_fields(state);
  if (ImGui::Button("Open")) state.requests.open_source = true;
  if (state.source.kind == SourceKind::Camera || state.source.kind == SourceKind::Uvc) {
    ImGui::SameLine();
    if (ImGui::Button("List cameras")) state.requests.list_cameras = true;
    if (!state.camera_list.empty()) ImGui::TextWrapped("%s", state.camera_list.c_str());
  }
  ImGui::Separator();
  running_status(state, status);
  playback_controls(state, status);
  calibration_controls(state);
}

}  // namespace sv
