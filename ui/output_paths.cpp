#include "ui/output_paths.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "src/app/param_script.h"
#include "src/core/error.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

// Whether `folder` exists as a writable folder or can be created: its nearest existing
// ancestor must be a writable folder. Empty when it can, else why not.
std::string why_not_writable_folder(const fs::path& folder) {
  fs::path existing = folder.empty() ? fs::path(".") : folder;
  std::error_code error;
  while (!fs::exists(existing, error)) {
    if (!existing.has_parent_path() || existing.parent_path() == existing) {
      existing = ".";
      break;
    }
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, error)) return "\"" + existing.string() + "\" is not a folder";
  if (access(existing.c_str(), W_OK | X_OK) != 0) {
    return "cannot write into \"" + existing.string() + "\": " + std::strerror(errno);
  }
  return "";
}

}  // namespace

void check_output_file(const std::string& path, const std::string& what) {
  std::error_code error;
  if (path.empty()) throw RuntimeError(what + ": no file name given");
  if (fs::is_directory(path, error) || path.back() == '/') {
    throw RuntimeError(what + ": \"" + path + "\" is a folder, not a file name");
  }
  const std::string why = why_not_writable_folder(fs::path(path).parent_path());
  if (!why.empty()) throw RuntimeError(what + ": cannot write \"" + path + "\": " + why);
}

void check_output_folder(const std::string& folder, const std::string& what) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error)) {
    throw RuntimeError(what + ": \"" + folder + "\" exists and is not a folder");
  }
  const std::string why = why_not_writable_folder(fs::path(folder));
  if (!why.empty()) throw RuntimeError(what + ": cannot write into \"" + folder + "\": " + why);
}

void create_parent_folders(const std::string& path, const std::string& what) {
  const fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) return;
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    throw RuntimeError(what + ": cannot create folder \"" + folder.string() + "\": " +
                       error.message());
  }
}

void check_output_paths(const ViewerOptions& options) {
  if (!options.screenshot_path.empty()) check_output_file(options.screenshot_path, "--screenshot");
  for (const ScriptEvent& event : options.script) {
    const std::string where = options.script_path + ":" + std::to_string(event.line);
    if (event.action == ScriptAction::Snapshot && !event.value.empty()) {
      check_output_folder(event.value, where + ": snapshot");
    }
    if (event.action == ScriptAction::RecordStart) {
      const size_t space = event.value.find(' ');
      if (space == std::string::npos) continue;  // a dated name in recordings/, checked then
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
