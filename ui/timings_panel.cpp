#include "ui/timings_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace sv {

void draw_timings_section(const ViewerStatus& status) {
  ImGui::Text("capture %5.1f fps   processing %5.1f fps   display %5.1f fps",
              status.capture.frames_per_second, status.processing.frames_per_second,
              status.display_fps);
  ImGui::Text("pairs delivered %lld, dropped %llu", static_cast<long long>(status.capture.delivered),
              static_cast<unsigned long long>(status.capture.dropped));
  ImGui::Text("GPU memory: %s", status.gpu_memory.c_str());
  if (!status.timings) return;
  const TimingHistory& history = *status.timings;

  const std::vector<float> frame_ms = history.frame_times_ms();
  if (!frame_ms.empty()) {
    const float peak = *std::max_element(frame_ms.begin(), frame_ms.end());
    char overlay[64];
    snprintf(overlay, sizeof overlay, "frame %.1f ms (max %.1f)", frame_ms.back(), peak);
    ImGui::PlotLines("##frame_time", frame_ms.data(), static_cast<int>(frame_ms.size()), 0,
                     overlay, 0.0f, peak * 1.1f + 0.01f,
                     ImVec2(ImGui::GetContentRegionAvail().x, 60.0f * ImGui::GetIO().FontGlobalScale));
  }
  ImGui::Text("stage times over the last %zu frames (ms)", history.frames());
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("stages", 4, flags)) {
    ImGui::TableSetupColumn("stage", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableSetupColumn("last");
    ImGui::TableSetupColumn("mean");
    ImGui::TableSetupColumn("max");
    ImGui::TableHeadersRow();
    double total_last = 0, total_mean = 0;
    for (const StageSummary& row : history.summary()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.stage.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", row.last_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", row.mean_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", row.max_ms);
      total_last += row.last_ms;
      total_mean += row.mean_ms;
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("sum of stages");
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", total_last);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", total_mean);
    ImGui::EndTable();
  }
}

}  // namespace sv
