#pragma once

#include <string>

namespace sv {

// Output paths create the folders they need, as `mkdir -p` would: a new user's first command
// (`--out out/run`, `--record out/walk.mkv`) must not fail on a folder that does not exist yet.
// Both throw RuntimeError naming `what` (the flag, e.g. "--out") and the reason: a part of the
// path that is a file, no permission, a read-only file system.

// `folder` and its missing parents.
void create_output_folder(const std::string& folder, const std::string& what);

// The missing parents of the file `path` (nothing when it has no folder part).
void create_parent_folders(const std::string& path, const std::string& what);

}  // namespace sv
