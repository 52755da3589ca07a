#pragma once

#include <string>

#include "ui/viewer_options.h"

namespace sv {

// Where the viewer writes when the user names no place: under out/, which .gitignore names, so
// running it from a checkout leaves the repository as it was.
inline constexpr char kDefaultSnapshotDir[] = "out/snapshots";
inline constexpr char kDefaultRecordingDir[] = "out/recordings/";  // a dated file name in it
inline constexpr char kDefaultCloudRecordDir[] = "out/clouds";

// The files and folders a run will write, checked before the window opens so a typo fails at
// once instead of after the run: the screenshot, and the snapshot folders and recording files a
// script names. Nothing is created here; a missing folder is fine when it can be created (its
// nearest existing ancestor is a writable folder). Throws RuntimeError naming the option.
void check_output_paths(const ViewerOptions& options);

}  // namespace sv
