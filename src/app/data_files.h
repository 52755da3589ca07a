#pragma once

#include <string>
#include <vector>

namespace sv {

// Where the files stereoview ships (the viewer's shaders, the presets) are read at run time, so
// that a build tree and an installed tree both work without a setting. A kind of file (`kind`:
// "shaders" or "presets") is looked for, first found wins, in:
//   1. $STEREOVIEW_DATA_DIR/<kind> (a relocated copy),
//   2. <executable's folder>/../share/stereoview/<kind> (an installed tree, wherever its prefix;
//      the relative path is the install layout's, compiled in),
//   3. the source tree's folder for it (shaders/, assets/presets/; compiled in: a build tree).
// A candidate counts when it holds `marker` (a file every copy has).
std::vector<std::string> data_dir_candidates(const std::string& kind);
// The first candidate holding `marker`, or "" when none does; `tried` (when given) receives the
// candidates as one comma-separated list for the caller's error message.
std::string find_data_dir(const std::string& kind, const std::string& marker,
                          std::string* tried = nullptr);

// Where the viewer, stereoview-viewer, is beside the running program: in the same folder (an
// installed tree) or in ui/ of the build folder (a build tree). Relative to the working folder
// when it lies under it, as a user would type it; "" when it is in neither place.
std::string viewer_program_path();

// --preset NAME: a file path is taken as it is (a file of that name in the working folder wins);
// a bare name such as "fast" or "fast.preset" that is no file names a shipped preset, and gives
// its path when one exists. Anything else comes back unchanged, so the preset loader reports the
// missing file as before.
std::string resolve_preset_path(const std::string& name_or_path);
// The shipped presets' names ("default", "fast"), sorted; empty when no presets folder is found.
std::vector<std::string> shipped_preset_names();

}  // namespace sv
