#include "ui/recording_panel.h"

#include <imgui.h>

#include <cstdio>
#include <ctime>
#include <iterator>

#include "src/app/stop_signals.h"
#include "src/io/point_cloud_ply.h"
#include "ui/output_paths.h"
#ifdef STEREOVIEW_HAS_RECORDING
#include "src/app/recorder.h"
#include "src/app/recording_setup.h"
#endif

namespace sv {
namespace {

const char* const kFormats[] = {"color", "lossless16", "raw", "side-by-side"};
const char* const kFormatHelp[] = {
    "the colorized disparity over the search range (H.264 MP4 by default)",
    "the exact disparity as 16-bit values (FFV1 .mkv, or a .png file name for a PNG sequence)",
    "the input pair side by side, replayable with --sbs",
    "the left view beside the colorized disparity",
};

std::string elapsed_text(double seconds) {
  const long s = static_cast<long>(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%02ld:%02ld", s / 60, s % 60);
  return text;
}

// "out/recordings/" becomes out/recordings/<format>_<date>_<time>.<ext>, so recordings never overwrite
// each other; a file name is used as given.
std::string resolve_path(const std::string& path, const char* format) {
  if (!path.empty() && path.back() != '/') return path;
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", std::localtime(&now));
  const std::string name = std::string(format) == "lossless16" ? "disparity16" : format;
  const char* extension = std::string(format) == "lossless16" ? ".mkv" : ".mp4";
  return path + name + "_" + stamp + extension;
}

}  // namespace

RecordingPanel::RecordingPanel(Log log) : log_(std::move(log)) {
  std::snprintf(path_, sizeof path_, "%s", kDefaultRecordingDir);
}

RecordingPanel::~RecordingPanel() { stop(); }

bool RecordingPanel::recording() const { return recorder_ != nullptr; }

double recording_frame_rate(const CaptureStatus& capture) {
  if (capture.nominal_frames_per_second > 0.0) return capture.nominal_frames_per_second;
  if (capture.frames_per_second > 0.0) return capture.frames_per_second;
  return 30.0;
}

std::optional<StereoGeometry> displayed_geometry(const std::optional<StereoGeometry>& source_geometry,
                                                 bool synthetic_running,
                                                 const SyntheticSceneConfig& scene) {
  if (source_geometry) return source_geometry;
  if (synthetic_running) return synthetic_scene_geometry(scene.width, scene.height, scene.max_disparity);
  return std::nullopt;
}

void RecordingPanel::request_start(const std::string& format, const std::string& path) {
  for (int i = 0; i < static_cast<int>(std::size(kFormats)); ++i) {
    if (format == kFormats[i]) format_index_ = i;
  }
  if (!path.empty()) std::snprintf(path_, sizeof path_, "%s", path.c_str());
  request_ = Request::Start;
}

#ifdef STEREOVIEW_HAS_RECORDING

void RecordingPanel::start(const ProcessedFrame& frame, const RecordingContext& context) {
  RecordingRequest request;
  request.format = kFormats[format_index_];
  request.path = resolve_path(path_, kFormats[format_index_]);
  request.codec = codec_;
  request.frames_per_second = context.frames_per_second;
  request.colormap = context.colormap;
  request.params = frame.params;
  request.source = context.source;
  request.engine = frame.engine;
  request.calibration_file = context.calibration_file;
  request.geometry = context.geometry;
  request.difference_scale = context.difference_scale;
  error_.clear();
  error_reported_ = false;
  try {
    // The Recorder checks the destination at once (and creates its folders), so a bad choice is
    // said now, not after the first frame.
    recorder_ = std::make_unique<Recorder>(make_recorder_settings(request),
                                           [this](const std::string& note) { log_("recording: " + note); });
    last_file_ = recorder_->status().path;
    log_("recording " + std::string(kFormats[format_index_]) + " to " + last_file_);
  } catch (const std::exception& e) {
    error_ = e.what();
    log_(std::string("error: recording: ") + e.what());
    error_reported_ = true;
  }
}

void RecordingPanel::stop() {
  if (!recorder_) return;
  // Every stop here is the user's (R, a script, closing the viewer) unless a signal closes it;
  // a failed recording's sidecar says its own error.
  const int signal = stop_signal();
  const RecorderStatus status = recorder_->stop(
      signal != 0 ? RecordingStop{RecordingStop::Reason::Interrupted, signal, ""} : RecordingStop{});
  recorder_.reset();
  last_summary_ = std::to_string(status.frames_written) + " frames, " +
                  format_byte_count(status.bytes_written) + ", " + std::to_string(status.dropped) +
                  " dropped";
  if (!status.error.empty()) {
    error_ = status.error;
    if (!error_reported_) log_("error: " + status.error);
    error_reported_ = true;
    return;
  }
  log_("recorded " + last_summary_ + ": " + status.path + " (sidecar " + status.sidecar_path +
       ", " + status.stop_reason + ")");
}

void RecordingPanel::update(const ProcessedFrame* frame, const RecordingContext& context) {
  if (recorder_ && !recorder_->status().error.empty()) stop();  // failed: finish and report
  const Request request = request_;
  request_ = Request::None;
  if (request == Request::None) return;
  if (recorder_) {
    if (request != Request::Start) stop();
  } else if (request == Request::Stop) {
    return;
  } else if (!frame) {
    log_("recording: no frame yet");
  } else {
    start(*frame, context);
  }
}

namespace {

// What a recording frame of `format` takes from the pair: its number and time, and the views
// (the raw format at the input's full depth).
RecordingFrame pair_part(const StereoPair& pair, const std::string& format) {
  RecordingFrame record;
  record.index = pair.index;
  record.timestamp_s = pair.timestamp_s;
  if (format == "raw" || format == "side-by-side") {
    record.left = pair.left;
    record.right = pair.right;
  }
  if (format == "raw") {
    record.left16 = pair.left16;
    record.right16 = pair.right16;
    record.leftf = pair.leftf;
    record.rightf = pair.rightf;
  }
  return record;
}

}  // namespace

void RecordingPanel::add_frame(const ProcessedFrame& frame) {
  if (!recorder_) return;
  const std::string format = kFormats[format_index_];
  RecordingFrame record = pair_part(frame.pair, format);
  record.params = frame.params;  // parameters change live: the sidecar lists each change
  record.engine = frame.engine;
  if (format == "color" || format == "side-by-side") record.disparity = frame.result.disparity;
  if (format == "lossless16") record.disparity_fixed = frame.result.disparity_fixed;
  recorder_->submit(std::move(record));  // never waits: a full queue counts a dropped frame
}

void RecordingPanel::add_difference(const AbMatch& match, const ImageRgb8& colours) {
  if (!recorder_ || !match.b_frame) return;
  const std::string format = kFormats[format_index_];
  // B's pair is the one both sides computed.
  RecordingFrame record = pair_part(match.b_frame->pair, format);
  record.params = match.a.params;
  record.engine = match.a.engine;
  if (format == "color" || format == "side-by-side") record.picture = colours;
  if (format == "lossless16") record.disparity_fixed = difference_fixed(match.difference);
  recorder_->submit(std::move(record));
}

void RecordingPanel::draw(float x, float y, float indicator_x, float indicator_y) {
  if (recorder_) {
    const RecorderStatus s = recorder_->status();
    char text[160];
    std::snprintf(text, sizeof text, "REC %s  %lld frames  %s  dropped %lld",
                  elapsed_text(s.elapsed_s).c_str(), static_cast<long long>(s.frames_written),
                  format_byte_count(s.bytes_written).c_str(), static_cast<long long>(s.dropped));
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImVec2 size = ImGui::CalcTextSize(text);
    const float r = size.y * 0.45f;
    draw->AddRectFilled(ImVec2(indicator_x, indicator_y),
                        ImVec2(indicator_x + size.x + 4 * r + 12, indicator_y + size.y + 8),
                        IM_COL32(0, 0, 0, 170), 4.0f);
    draw->AddCircleFilled(ImVec2(indicator_x + 6 + r, indicator_y + 4 + size.y * 0.5f), r,
                          IM_COL32(230, 30, 30, 255));
    draw->AddText(ImVec2(indicator_x + 2 * r + 10, indicator_y + 4), IM_COL32(255, 255, 255, 255), text);
  }

  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Recording")) {
    ImGui::End();
    return;
  }
  const bool running = recorder_ != nullptr;
  if (running) ImGui::BeginDisabled();
  ImGui::Combo("format", &format_index_, kFormats, IM_ARRAYSIZE(kFormats));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kFormatHelp[format_index_]);
  ImGui::InputText("file", path_, sizeof path_);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("a file name (.mp4, .mkv, .avi; .png for a lossless16 PNG sequence), or a "
                      "folder ending in / for a time-stamped name");
  }
  ImGui::InputText("codec", codec_, sizeof codec_);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("FFmpeg encoder: empty for the default (libx264; ffv1 for lossless16), or "
                      "mpeg4, mjpeg, ffv1, libx265, ...");
  }
  if (running) ImGui::EndDisabled();
  if (ImGui::Button(running ? "Stop (R)" : "Record (R)")) request_ = Request::Toggle;
  if (running) {
    const RecorderStatus s = recorder_->status();
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.25f, 0.25f, 1.0f), "recording %s", elapsed_text(s.elapsed_s).c_str());
    ImGui::Text("%lld frames, %s, %lld dropped, %lld queued", static_cast<long long>(s.frames_written),
                format_byte_count(s.bytes_written).c_str(), static_cast<long long>(s.dropped),
                static_cast<long long>(s.queued));
    ImGui::TextWrapped("%s", s.path.c_str());
    if (!s.description.empty()) ImGui::TextDisabled("%s", s.description.c_str());
  } else if (!last_file_.empty()) {
    ImGui::TextWrapped("last: %s (%s)", last_file_.c_str(), last_summary_.c_str());
  }
  if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", error_.c_str());
  ImGui::End();
}

#else  // a build without FFmpeg's libraries or nlohmann-json: the window says what is missing

void RecordingPanel::start(const ProcessedFrame&, const RecordingContext&) {}
void RecordingPanel::stop() {}
void RecordingPanel::update(const ProcessedFrame*, const RecordingContext&) {
  if (request_ != Request::None && request_ != Request::Stop) {
    log_("recording: not in this build (needs libav*-dev and nlohmann-json3-dev)");
  }
  request_ = Request::None;
}
void RecordingPanel::add_frame(const ProcessedFrame&) {}
void RecordingPanel::add_difference(const AbMatch&, const ImageRgb8&) {}
void RecordingPanel::draw(float x, float y, float, float) {
  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Recording")) {
    ImGui::TextWrapped("Recording is not in this build: install libavformat-dev, libavcodec-dev, "
                       "libswscale-dev and nlohmann-json3-dev, then configure again.");
  }
  ImGui::End();
}

#endif

}  // namespace sv
