#include "src/app/data_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace sv {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPresetExtension = ".preset";

std::string executable_dir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string() : exe.parent_path().string();
}

std::string source_tree_dir(const std::string& kind) {
  const std::string root = STEREOVIEW_SOURCE_ROOT;
  if (kind == "shaders") return root + "/shaders";
  if (kind == "presets") return root + "/assets/presets";
  return root + "/assets/" + kind;
}

bool names_regular_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

}  // namespace

std::string viewer_program_path() {
  const std::string exe_dir = executable_dir();
  if (exe_dir.empty()) return "";
  // The build tree's programs are in src/app/ and ui/ of the build folder.
  for (const fs::path candidate : {fs::path(exe_dir) / "stereoview-viewer",
                                   fs::path(exe_dir) / ".." / ".." / "ui" / "stereoview-viewer"}) {
    std::error_code error;
    if (!fs::is_regular_file(candidate, error)) continue;
    const fs::path path = fs::weakly_canonical(candidate, error);
    const fs::path relative = path.lexically_relative(fs::current_path(error));
    const bool under_working_folder = !relative.empty() && *relative.begin() != "..";
    return (under_working_folder ? relative : path).string();
  }
  return "";
}

std::vector<std::string> data_dir_candidates(const std::string& kind) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("STEREOVIEW_DATA_DIR"); env && *env) {
    candidates.push_back(std::string(env) + "/" + kind);
  }
  const std::string exe_dir = executable_dir();
  if (!exe_dir.empty()) {
    // Normalized, so messages name share/stereoview rather than bin/../share/stereoview.
    const fs::path installed = fs::path(exe_dir) / STEREOVIEW_INSTALLED_DATA_FROM_BIN / kind;
    candidates.push_back(installed.lexically_normal().string());
  }
  candidates.push_back(source_tree_dir(kind));
  return candidates;
}

std::string find_data_dir(const std::string& kind, const std::string& marker, std::string* tried) {
  const std::vector<std::string> candidates = data_dir_candidates(kind);
  for (const std::string& dir : candidates) {
    if (names_regular_file(fs::path(dir) / marker)) return dir;
  }
  if (tried) {
    tried->clear();
    for (const std::string& dir : candidates) *tried += (tried->empty() ? "" : ", ") + dir;
  }
  return "";
}

std::string resolve_preset_path(const std::string& name_or_path) {
  std::error_code error;
  if (name_or_path.empty() || name_or_path.find('/') != std::string::npos ||
      fs::exists(name_or_path, error)) {
    return name_or_path;
  }
  const std::string dir = find_data_dir("presets", std::string("default") + kPresetExtension);
  if (dir.empty()) return name_or_path;
  const bool has_extension = fs::path(name_or_path).extension() == kPresetExtension;
  const fs::path shipped = fs::path(dir) / (has_extension ? name_or_path : name_or_path + kPresetExtension);
  return names_regular_file(shipped) ? shipped.string() : name_or_path;
}

std::vector<std::string> shipped_preset_names() {
  std::vector<std::string> names;
  const std::string dir = find_data_dir("presets", std::string("default") + kPresetExtension);
  if (dir.empty()) return names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == kPresetExtension && names_regular_file(it->path())) {
      names.push_back(it->path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sv
