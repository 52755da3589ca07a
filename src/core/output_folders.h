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

// Checks without creating anything, for options validated before a run starts: `path` as a file
// to write (not a folder; its folder existing or creatable, i.e. its nearest existing ancestor
// a writable folder), and `folder` as a folder to write into. RuntimeError naming `what`.
void check_output_file(const std::string& path, const std::string& what);
void check_output_folder(const std::string& folder, const std::string& what);

}  // namespace sv
