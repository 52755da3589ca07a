#include "src/core/output_folders.h"

#include <filesystem>
#include <system_error>

#include "src/core/error.h"

namespace sv {

void create_output_folder(const std::string& folder, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(folder, error);
  if (fs::is_directory(folder)) return;
  // create_directories reports "file exists" for a file in the way; name the real obstacle.
  fs::path obstacle = folder;
  while (!obstacle.empty() && !fs::exists(obstacle)) obstacle = obstacle.parent_path();
  if (!obstacle.empty() && !fs::is_directory(obstacle)) {
    throw RuntimeError(what + ": cannot create folder \"" + folder + "\": \"" + obstacle.string() +
                       "\" exists and is not a folder");
  }
  throw RuntimeError(what + ": cannot create folder \"" + folder + "\": " +
                     (error ? error.message() : std::string("unknown reason")));
}

void create_parent_folders(const std::string& path, const std::string& what) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) create_output_folder(parent.string(), what);
}

}  // namespace sv
