#include "src/core/output_folders.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

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

void create_output_folder(const std::string& folder, const std::string& what) {
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
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) create_output_folder(parent.string(), what);
}

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

}  // namespace sv
