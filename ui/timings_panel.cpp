#include "ui/timings_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "ui/rate_text.h"

namespace sv {
namespace {

void draw_rates(const ViewerStatus& status) {
  const auto rate = [&](double fps, int width) {
    return rate_text(fps, status.source_frames, status.source_live, width);
  };
  ImGui::Text("capture     %s", rate(status.capture.frames_per_second, 6).c_str());
  ImGui::Text("processing  %s", rate(status.processing.frames_per_second, 6).c_str());
  if (status.processing_b) {
    ImGui::Text("processing B %s", rate(status.processing_b->frames_per_second, 5).c_str());
  }
  ImGui::Text("display     %6.1f fps", status.display_fps);
  ImGui::Text("pairs %lld, dropped %llu", static_cast<long long>(status.capture.delivered),
              static_cast<unsigned long long>(status.capture.dropped));
  ImGui::TextWrapped("GPU memory: %s", status.gpu_memory.c_str());
  if (!status.cloud_timing.empty()) ImGui::TextWrapped("3D view: %s", status.cloud_timing.c_str());
  if (status.flicker) {
    ImGui::Text("flicker %.3f px (mean %.3f)", *status.flicker, status.flicker_mean.value_or(0.0));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Mean absolute change of the disparity from the previous frame, over "
                        "pixels valid in both; the mean is over the last frames. The temporal "
                        "filter (parameter 'temporal') lowers it on a still scene.");
    }
  } else {
    ImGui::TextDisabled("flicker: after two frames");
  }
}

void draw_frame_plot(const TimingHistory& history) {
  const std::vector<float> frame_ms = history.frame_times_ms();
  if (frame_ms.empty()) return;
  const float peak = *std::max_element(frame_ms.begin(), frame_ms.end());
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "frame %.1f ms (max %.1f)", frame_ms.back(), peak);
  ImGui::PlotLines("##frame_time", frame_ms.data(), static_cast<int>(frame_ms.size()), 0, overlay,
                   0.0f, peak * 1.1f + 0.01f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 60.0f * ImGui::GetIO().FontGlobalScale));
}

// With A/B on (`b` given), a last column with B's mean of each stage.
void draw_stage_table(const TimingHistory& history, const TimingHistory* b) {
  ImGui::Text("stage times over the last %zu frames (ms)", history.frames());
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("stages", b ? 5 : 4, flags)) return;
  ImGui::TableSetupColumn("stage", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("last");
  ImGui::TableSetupColumn("mean");
  ImGui::TableSetupColumn("max");
  if (b) ImGui::TableSetupColumn("B mean");
  ImGui::TableHeadersRow();
  std::vector<StageSummary> rows = history.summary();
  std::vector<StageSummary> b_rows = b ? b->summary() : std::vector<StageSummary>{};
  // B's stages A lacks (another algorithm or engine) get rows of their own, with no A numbers.
  for (const StageSummary& row : b_rows) {
    const bool in_a = std::any_of(rows.begin(), rows.end(),
                                  [&](const StageSummary& r) { return r.stage == row.stage; });
    if (!in_a) rows.push_back(StageSummary{row.stage, 0.0, 0.0, 0.0, 0});
  }
  double total_last = 0, total_mean = 0, total_b = 0;
  for (const StageSummary& row : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.stage.c_str());
    for (const double value : {row.last_ms, row.mean_ms, row.max_ms}) {
      ImGui::TableNextColumn();
      if (row.samples > 0) ImGui::Text("%.2f", value);
    }
    total_last += row.last_ms;
    total_mean += row.mean_ms;
    if (!b) continue;
    ImGui::TableNextColumn();
    for (const StageSummary& b_row : b_rows) {
      if (b_row.stage != row.stage) continue;
      ImGui::Text("%.2f", b_row.mean_ms);
      total_b += b_row.mean_ms;
    }
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("sum of stages");
  ImGui::TableNextColumn();
  ImGui::Text("%.2f", total_last);
  ImGui::TableNextColumn();
  ImGui::Text("%.2f", total_mean);
  if (b) {
    ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", total_b);
  }
  ImGui::EndTable();
}

}  // namespace

void TimingsWindow::draw(const ViewerStatus& status, const Rect& slot, bool& shown) {
  drawn_ = false;
  if (!shown) return;
  dock_.place(slot);
  if (dock_.docked()) {
    // Placed before its first Begin too (WindowDock places windows that exist).
    ImGui::SetNextWindowPos(ImVec2(slot.x, slot.y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(slot.w, slot.h), ImGuiCond_FirstUseEver);
  }
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;
  if (dock_.docked()) flags |= ImGuiWindowFlags_NoResize;
  const bool open = ImGui::Begin("Timings", &shown, flags);
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  rect_ = {pos.x, pos.y, size.x, size.y};
  if (open) {
    const float scale = ImGui::GetIO().FontGlobalScale;
    // Side by side where there is room: the rates and the plot, then the stage table.
    const bool side_by_side = ImGui::GetContentRegionAvail().x >= 560.0f * scale;
    if (side_by_side) {
      ImGui::BeginTable("timings_columns", 2, ImGuiTableFlags_SizingStretchProp);
      ImGui::TableSetupColumn("rates", ImGuiTableColumnFlags_WidthFixed, 230.0f * scale);
      ImGui::TableSetupColumn("stages", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableNextColumn();
    }
    draw_rates(status);
    if (status.timings) draw_frame_plot(*status.timings);
    if (side_by_side) ImGui::TableNextColumn();
    if (status.timings) draw_stage_table(*status.timings, status.timings_b);
    if (side_by_side) ImGui::EndTable();
    const ImGuiStyle& style = ImGui::GetStyle();
    wanted_height_ = ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y;
    drawn_ = true;
  }
  ImGui::End();
}

}  // namespace sv
