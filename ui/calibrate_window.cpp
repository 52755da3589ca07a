#include "ui/calibrate_window.h"

#include <imgui.h>

#include <cstdio>

#include "src/core/error.h"

namespace sv {
namespace {

void draw_coverage_map(CalibrationSession& session, bool left_camera, const char* label,
                       float width) {
  constexpr int kCols = 16, kRows = 12;
  const std::vector<bool> cells = session.coverage_cells(left_camera, kCols, kRows);
  const float cell = width / kCols;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int y = 0; y < kRows; ++y) {
    for (int x = 0; x < kCols; ++x) {
      const ImVec2 a(origin.x + x * cell, origin.y + y * cell);
      const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
      draw->AddRectFilled(a, b, cells[static_cast<size_t>(y) * kCols + x] ? IM_COL32(40, 180, 80, 255)
                                                                           : IM_COL32(60, 60, 60, 255));
    }
  }
  draw->AddText(ImVec2(origin.x + 2.0f, origin.y + 1.0f), IM_COL32(255, 255, 255, 255), label);
  ImGui::Dummy(ImVec2(width, cell * kRows));
}

}  // namespace

CalibrationSettings calibrate_settings(const CalibrateWindowState& state) {
  CalibrationSettings settings;
  settings.board = parse_board_spec(state.board, state.square, state.marker);
  settings.model = state.model == 2 ? LensModel::Fisheye
                   : state.model == 1 ? LensModel::Pinhole8
                                      : LensModel::Pinhole5;
  return settings;
}

void draw_calibrate_window(CalibrateWindowState& state, CalibrationSession& session,
                           const Rect& slot) {
  const float scale = ImGui::GetFontSize() / 13.0f;
  const float width = 360.0f * scale;  // the content's; the window's height follows it
  ImGui::SetNextWindowPos(ImVec2(slot.x, slot.y), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Calibrate", &state.open, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::PushItemWidth(0.6f * width);
  const auto end = [] {
    ImGui::PopItemWidth();
    ImGui::PopTextWrapPos();
    ImGui::End();
  };
  ImGui::InputText("board", state.board, sizeof state.board);
  ImGui::InputFloat("square (m)", &state.square, 0.0f, 0.0f, "%.4f");
  ImGui::InputFloat("marker (m)", &state.marker, 0.0f, 0.0f, "%.4f");
  ImGui::Combo("model", &state.model, "pinhole, 5 terms\0pinhole, 8 terms\0fisheye\0");
  if (ImGui::Button(session.started() ? "Start again" : "Start")) state.start = true;
  if (!state.message.empty()) ImGui::TextWrapped("%s", state.message.c_str());
  if (!session.started()) {
    ImGui::TextWrapped("Hold the board in view of both cameras; views are captured when it is "
                       "held still somewhere new (or press V).");
    end();
    return;
  }
  ImGui::Separator();
  const auto& detection = session.detection();
  if (!detection) {
    ImGui::TextUnformatted("board: looking...");
  } else if (detection->usable) {
    ImGui::TextColored(ImVec4(0.3f, 1.0f, 0.4f, 1.0f), "board: found in both views");
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "board: %s", detection->reason.c_str());
  }
  const double offset = session.vertical_offset_px();
  if (offset >= 0.0) {
    ImGui::Text("vertical offset of the corners now: %.2f px", offset);
  }
  ImGui::Text("views: %d (at least %d)%s", session.view_count(), session.minimum_views(),
              session.capturing() ? "" : ", applied: the views are its rectified preview");
  if (ImGui::Button("Capture (V)")) session.request_capture();
  ImGui::SameLine();
  ImGui::Checkbox("auto capture when held still", &session.auto_capture);
  const float map_width = 0.5f * (width - ImGui::GetStyle().ItemSpacing.x);
  draw_coverage_map(session, true, "left", map_width);
  ImGui::SameLine();
  draw_coverage_map(session, false, "right", map_width);
  ImGui::Separator();
  if (session.calibrating()) {
    ImGui::ProgressBar(static_cast<float>(session.progress()), ImVec2(-1.0f, 0.0f),
                       ("calibrating: " + session.progress_stage()).c_str());
  } else if (ImGui::Button("Calibrate")) {
    session.run_calibration();
  }
  if (!session.error().empty()) ImGui::TextWrapped("calibration failed: %s", session.error().c_str());
  if (const auto& result = session.result()) {
    const CalibrationReport& r = result->report;
    ImGui::Text("RMS %.3f px, epipolar mean %.3f max %.3f px", r.rms_px, r.epipolar_mean_px,
                r.epipolar_max_px);
    ImGui::Text("baseline %.4f, focal %.1f px, coverage %.0f %% / %.0f %%", r.baseline,
                r.rectified_focal_px, 100.0 * r.coverage_left, 100.0 * r.coverage_right);
    if (ImGui::CollapsingHeader("report")) {
      ImGui::BeginChild("report", ImVec2(width, 160.0f * scale), true,
                        ImGuiWindowFlags_HorizontalScrollbar);
      ImGui::TextUnformatted(format_calibration_report(r).c_str());
      ImGui::EndChild();
    }
    ImGui::InputText("file", state.path, sizeof state.path);
    ImGui::Checkbox("overwrite", &state.overwrite);
    if (ImGui::Button("Save")) state.save = true;
    ImGui::SameLine();
    if (ImGui::Button("Apply (save and rectify)")) state.apply = true;
  }
  end();
}

void draw_detected_corners(const CalibrationSession& session, const FrameLayout& layout,
                           const std::array<ViewKind, 4>& views) {
  const auto& detection = session.detection();
  if (!detection || session.detection_width() <= 0) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImU32 colour = detection->usable ? IM_COL32(60, 255, 90, 255) : IM_COL32(255, 150, 40, 255);
  for (size_t i = 0; i < layout.cells.size(); ++i) {
    if (views[i] != ViewKind::Left && views[i] != ViewKind::Right) continue;
    const BoardCorners& corners = views[i] == ViewKind::Left ? detection->view.left : detection->view.right;
    const Rect& image = layout.images[i];
    const float sx = image.w / session.detection_width(), sy = image.h / session.detection_height();
    draw->PushClipRect(ImVec2(layout.cells[i].x, layout.cells[i].y),
                       ImVec2(layout.cells[i].x + layout.cells[i].w, layout.cells[i].y + layout.cells[i].h));
    for (const CornerPoint& p : corners.points) {
      draw->AddCircle(ImVec2(image.x + (p.x + 0.5f) * sx, image.y + (p.y + 0.5f) * sy), 3.0f, colour);
    }
    draw->PopClipRect();
  }
}

}  // namespace sv
