#pragma once

#include <string>

#include "ui/viewer_options.h"

namespace sv {

// The files and folders a run will write, checked before the window opens so a typo fails at
// once instead of after the run: the screenshot, and the snapshot folders and recording files a
// script names. Nothing is created here; a missing folder is fine when it can be created (its
// nearest existing ancestor is a writable folder). Throws RuntimeError naming the option.
void check_output_paths(const ViewerOptions& options);

// `path` as a file to write: not a folder, its folder existing or creatable. `what` names it in
// the message, e.g. "--screenshot".
void check_output_file(const std::string& path, const std::string& what);
// `folder` as a folder to write into: a folder or creatable.
void check_output_folder(const std::string& folder, const std::string& what);

// Creates the folders above `path` (a file about to be written); RuntimeError naming `what`.
void create_parent_folders(const std::string& path, const std::string& what);

}  // namespace sv
