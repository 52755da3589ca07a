#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sv {

// A script of timed changes for the viewer (--script FILE): reproducible tuning sessions, demos
// and the app tests. One command per line, '#' starts a comment, blank lines are ignored:
//
//   at 5 set p2 = 80            # 5 s after start ("5s" and "2.5" work too); '=' is optional
//   at 10 algorithm bm-sad      # the same as: set algorithm = bm-sad
//   at frame 3 colormap gray    # once 3 processed frames have been shown
//   at frame 6 layout 4         # 1, 2 or 4 views
//   at 12 view blend            # left, right, disparity, blend, confidence (layout 1's view)
//   at 15 engine cpu            # cpu, cuda, auto
//   at 20 pause | resume | snapshot [FOLDER] | quit
//   at frame 5 source --sbs stereo.avi --calib c.yaml   # the stereoview CLI's source flags
//   at frame 9 source synthetic                         # back to the synthetic scene
//   at frame 12 seek 40                                 # a file's frame 40 (from 0) next
//   at frame 2 record lossless16 out/run.mkv   # start recording (a format of --record-format;
//   at frame 8 record stop                     #   FILE optional: a dated name in recordings/)
//   at frame 1 calibrate open chessboard:9x6 0.025   # the Calibrate window: board, square
//   at frame 2 calibrate capture | auto on|off | run | apply [FILE] | save FILE | close
//   at frame 1 ab on                  # A/B: a second side, B, on the same frames (a copy of A)
//   at frame 1 ab set p2 = 200        # B's parameters ('set' above is A's)
//   at frame 2 ab engine cpu | ab copy a-to-b | ab copy b-to-a | ab edit a|b | ab off
//   at frame 2 ab view side | ab view difference   # A beside B, or |A - B| alone
//
// Every line is checked when the script is read (keys, values, names, source flags), so a typo
// fails at start-up with the file and line, never halfway through a run. Whether a source's files
// exist is found out when it is opened: the viewer then logs why and stays on its source. Paths
// in a script cannot contain spaces.

enum class ScriptTrigger { Seconds, Frame };

enum class ScriptAction {
  SetParam, Colormap, Layout, View, Engine, Pause, Resume, Snapshot, Quit, Source, Seek,
  RecordStart, RecordStop, Calibrate, AbSetParam, Ab
};

struct ScriptEvent {
  int line = 0;
  ScriptTrigger trigger = ScriptTrigger::Seconds;
  double at = 0.0;  // seconds since start, or a count of shown frames
  ScriptAction action = ScriptAction::SetParam;
  std::string key;    // SetParam, AbSetParam: the param_table() key
  // SetParam's value, or the argument of the other actions ("" if none); for Source the
  // flags for parse_source_flags, separated by spaces ("source synthetic": --source synthetic);
  // for RecordStart the format, then a space and the file when one was given; for Ab the
  // subcommand and its argument ("on", "engine cpu", "copy a-to-b", "edit b", "view side").
  std::string value;
  std::string text;   // the command as written, for the log
};

// The view names a script (and the viewer's --view) accepts.
const std::vector<std::string>& script_view_names();

// Throws InputError "<origin>:<line>: <what is wrong>".
std::vector<ScriptEvent> parse_param_script(const std::string& text,
                                            const std::string& origin = "script");
// A regular file of at most kMaxScriptFileBytes (input_file.h: a FIFO, device or folder is an
// InputError).
constexpr uint64_t kMaxScriptFileBytes = uint64_t{16} << 20;
std::vector<ScriptEvent> load_param_script(const std::string& path);

// Hands out the events as their time comes, each once, in file order among those due together.
class ScriptPlayer {
 public:
  explicit ScriptPlayer(std::vector<ScriptEvent> events = {});
  std::vector<ScriptEvent> due(double seconds, int64_t frames_shown);
  bool finished() const;

 private:
  std::vector<ScriptEvent> events_;
  std::vector<bool> fired_;
};

}  // namespace sv
