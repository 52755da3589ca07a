#include "ui/output_paths.h"

#include "src/app/param_script.h"
#include "src/core/output_folders.h"

namespace sv {
void check_output_paths(const ViewerOptions& options) {
  if (!options.screenshot_path.empty()) check_output_file(options.screenshot_path, "--screenshot");
  for (const ScriptEvent& event : options.script) {
    const std::string where = options.script_path + ":" + std::to_string(event.line);
    if (event.action == ScriptAction::Snapshot && !event.value.empty()) {
      check_output_folder(event.value, where + ": snapshot");
    }
    if (event.action == ScriptAction::RecordStart) {
      const size_t space = event.value.find(' ');
      if (space == std::string::npos) continue;  // a dated name in kDefaultRecordingDir, checked then
      const std::string file = event.value.substr(space + 1);
      // A name ending in '/' is a folder that gets a dated file name (recording_panel.cpp).
      if (file.back() == '/') {
        check_output_folder(file, where + ": record");
      } else {
        check_output_file(file, where + ": record");
      }
    }
  }
}

}  // namespace sv
