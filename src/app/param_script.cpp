#include "src/app/param_script.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <sstream>

#include "src/app/source_factory.h"
#include "src/core/algorithm_registry.h"
#include "src/core/colorize.h"
#include "src/core/error.h"
#include "src/core/input_file.h"
#include "src/core/param_table.h"
#include "src/core/stereo_params.h"

namespace sv {
namespace {

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

bool parse_number(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  // All of it: a NUL byte inside would end the number early.
  return end == text.c_str() + text.size() && std::isfinite(value);
}

std::string join(const std::vector<std::string>& words, size_t from) {
  std::string out;
  for (size_t i = from; i < words.size(); ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

class LineParser {
 public:
  LineParser(const std::string& origin, int line) : origin_(origin), line_(line) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(origin_ + ":" + std::to_string(line_) + ": " + what);
  }

  ScriptEvent parse(const std::vector<std::string>& words) {
    ScriptEvent event;
    event.line = line_;
    if (words[0] != "at") fail("a line starts with \"at <seconds>\" or \"at frame <n>\", not \"" + words[0] + "\"");
    size_t next = 1;
    if (next < words.size() && words[next] == "frame") {
      event.trigger = ScriptTrigger::Frame;
      ++next;
      if (next >= words.size()) fail("\"at frame\" needs a frame count");
      double frames = 0.0;
      if (!parse_number(words[next], frames) || frames < 0 || frames != std::floor(frames)) {
        fail("\"" + words[next] + "\" is not a frame count (a whole number >= 0)");
      }
      event.at = frames;
    } else {
      if (next >= words.size()) fail("\"at\" needs a time in seconds");
      std::string time = words[next];
      if (time.size() > 1 && time.back() == 's') time.pop_back();
      double seconds = 0.0;
      if (!parse_number(time, seconds) || seconds < 0) {
        fail("\"" + words[next] + "\" is not a time in seconds (e.g. 5, 2.5 or 5s)");
      }
      event.at = seconds;
    }
    ++next;
    if (next >= words.size()) fail("a command is missing after the time");
    event.text = join(words, next);
    parse_command(words, next, event);
    return event;
  }

 private:
  void expect_arguments(const std::vector<std::string>& words, size_t first, size_t count,
                        const std::string& usage) const {
    if (words.size() - first != count) fail("usage: " + usage);
  }

  void parse_command(const std::vector<std::string>& words, size_t at, ScriptEvent& event) const {
    const std::string& command = words[at];
    const size_t args = at + 1;
    if (command == "set") {
      // "set KEY = VALUE" or "set KEY VALUE"
      std::vector<std::string> rest(words.begin() + static_cast<long>(args), words.end());
      if (rest.size() == 3 && rest[1] == "=") rest.erase(rest.begin() + 1);
      if (rest.size() == 1) {
        // "set key=value" written without spaces
        const size_t eq = rest[0].find('=');
        if (eq != std::string::npos) rest = {rest[0].substr(0, eq), rest[0].substr(eq + 1)};
      }
      if (rest.size() != 2 || rest[1].empty()) fail("usage: set KEY = VALUE");
      set_checked(event, rest[0], rest[1]);
    } else if (command == "algorithm") {
      expect_arguments(words, args, 1, "algorithm NAME (" + algorithm_names() + ")");
      set_checked(event, "algorithm", words[args]);
    } else if (command == "colormap") {
      expect_arguments(words, args, 1, "colormap turbo|jet|inferno|gray");
      try {
        parse_colormap(words[args]);
      } catch (const InputError& e) {
        fail(e.what());
      }
      event.action = ScriptAction::Colormap;
      event.value = words[args];
    } else if (command == "layout") {
      expect_arguments(words, args, 1, "layout 1|2|4");
      if (words[args] != "1" && words[args] != "2" && words[args] != "4") {
        fail("layout \"" + words[args] + "\": 1, 2 or 4 views");
      }
      event.action = ScriptAction::Layout;
      event.value = words[args];
    } else if (command == "view") {
      expect_arguments(words, args, 1,
                       "view left|right|disparity|blend|confidence|disparity-b|difference");
      const auto& names = script_view_names();
      if (std::find(names.begin(), names.end(), words[args]) == names.end()) {
        fail("view \"" + words[args] +
             "\": one of left, right, disparity, blend, confidence, disparity-b, difference");
      }
      event.action = ScriptAction::View;
      event.value = words[args];
    } else if (command == "engine") {
      expect_arguments(words, args, 1, "engine cpu|cuda|auto");
      if (words[args] != "cpu" && words[args] != "cuda" && words[args] != "auto") {
        fail("engine \"" + words[args] + "\": cpu, cuda or auto");
      }
      event.action = ScriptAction::Engine;
      event.value = words[args];
    } else if (command == "pause" || command == "resume" || command == "quit") {
      expect_arguments(words, args, 0, command);
      event.action = command == "pause"    ? ScriptAction::Pause
                     : command == "resume" ? ScriptAction::Resume
                                           : ScriptAction::Quit;
    } else if (command == "snapshot") {
      if (words.size() - args > 1) fail("usage: snapshot [FOLDER]");
      event.action = ScriptAction::Snapshot;
      event.value = words.size() > args ? words[args] : "";
    } else if (command == "seek") {
      expect_arguments(words, args, 1, "seek FRAME");
      // Digits only: the viewer reads the value back as a 64-bit integer (1e3 or 1e30 would
      // pass as whole numbers and come back as 1, or not at all).
      const std::string& frame = words[args];
      if (frame.empty() || frame.size() > 18 ||
          frame.find_first_not_of("0123456789") != std::string::npos) {
        fail("seek \"" + frame + "\": a frame number (a whole number >= 0, at most 18 digits)");
      }
      event.action = ScriptAction::Seek;
      event.value = words[args];
    } else if (command == "record") {
      const size_t given = words.size() - args;
      if (given == 1 && words[args] == "stop") {
        event.action = ScriptAction::RecordStop;
      } else {
        static const char* const kFormats[] = {"color", "lossless16", "raw", "side-by-side"};
        if (given < 1 || given > 2 ||
            std::find(std::begin(kFormats), std::end(kFormats), words[args]) == std::end(kFormats)) {
          fail("usage: record color|lossless16|raw|side-by-side [FILE] | record stop");
        }
        event.action = ScriptAction::RecordStart;
        event.value = join(words, args);
      }
    } else if (command == "source") {
      std::vector<std::string> flags(words.begin() + static_cast<long>(args), words.end());
      if (flags.size() == 1 && flags[0] == "synthetic") flags = {"--source", "synthetic"};
      if (flags.empty()) fail("usage: source synthetic | source FLAGS (e.g. --sbs stereo.avi)");
      try {
        parse_source_flags(flags);
      } catch (const InputError& e) {
        fail(std::string("source: ") + e.what());
      }
      event.action = ScriptAction::Source;
      event.value = join(flags, 0);
    } else if (command == "calibrate") {
      // The Calibrate window (issue 19): open BOARD SQUARE [MARKER], capture, auto on|off,
      // run, apply [FILE], save FILE, close.
      const size_t given = words.size() - args;
      const std::string sub = given > 0 ? words[args] : "";
      const bool ok = (sub == "open" && (given == 3 || given == 4)) ||
                      ((sub == "capture" || sub == "run" || sub == "close") && given == 1) ||
                      (sub == "auto" && given == 2 && (words[args + 1] == "on" || words[args + 1] == "off")) ||
                      (sub == "apply" && given <= 2) || (sub == "save" && given == 2);
      if (!ok) {
        fail("usage: calibrate open BOARD SQUARE [MARKER] | capture | auto on|off | run | "
             "apply [FILE] | save FILE | close");
      }
      event.action = ScriptAction::Calibrate;
      event.value = join(words, args);
    } else if (command == "ab") {
      parse_ab(words, args, event);
    } else {
      fail("unknown command \"" + command +
           "\" (known: set, algorithm, colormap, layout, view, engine, pause, resume, snapshot, "
           "quit, source, seek, record, calibrate, ab)");
    }
  }

  // The A/B comparison (issue 22): on, off, set KEY = VALUE (B's), engine KIND, copy a-to-b |
  // b-to-a, edit a|b, view side|difference.
  void parse_ab(const std::vector<std::string>& words, size_t args, ScriptEvent& event) const {
    const std::string usage =
        "usage: ab on | off | set KEY = VALUE | engine cpu|cuda|auto | copy a-to-b|b-to-a | "
        "edit a|b | view side|difference";
    const size_t given = words.size() - args;
    const std::string sub = given > 0 ? words[args] : "";
    if (sub == "set") {
      // "ab set ..." parses as "set ..." would, then becomes B's.
      parse_command(words, args, event);
      event.action = ScriptAction::AbSetParam;
      return;
    }
    auto one_of = [&](std::initializer_list<const char*> choices) {
      if (given != 2) return false;
      for (const char* c : choices) {
        if (words[args + 1] == c) return true;
      }
      return false;
    };
    const bool ok = ((sub == "on" || sub == "off") && given == 1) ||
                    (sub == "engine" && one_of({"cpu", "cuda", "auto"})) ||
                    (sub == "copy" && one_of({"a-to-b", "b-to-a"})) ||
                    (sub == "edit" && one_of({"a", "b"})) ||
                    (sub == "view" && one_of({"side", "difference"}));
    if (!ok) fail(usage);
    event.action = ScriptAction::Ab;
    event.value = join(words, args);
  }

  // The value is parsed now (into a scratch copy) so a bad one is reported with its line.
  void set_checked(ScriptEvent& event, const std::string& key, const std::string& value) const {
    if (!find_param(key)) fail("unknown parameter \"" + key + "\"");
    StereoParams scratch;
    try {
      set_param(scratch, key, value);
    } catch (const InputError& e) {
      fail(e.what());
    }
    event.action = ScriptAction::SetParam;
    event.key = key;
    event.value = value;
  }

  const std::string& origin_;
  int line_;
};

}  // namespace

const std::vector<std::string>& script_view_names() {
  static const std::vector<std::string> names = {"left",       "right",       "disparity",
                                                  "blend",      "confidence",  "disparity-b",
                                                  "difference", "3d"};
  return names;
}

std::vector<ScriptEvent> parse_param_script(const std::string& text, const std::string& origin) {
  std::vector<ScriptEvent> events;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    const std::vector<std::string> words = split_words(line);
    if (words.empty()) continue;
    events.push_back(LineParser(origin, number).parse(words));
  }
  return events;
}

std::vector<ScriptEvent> load_param_script(const std::string& path) {
  return parse_param_script(read_small_file(path, "script", kMaxScriptFileBytes), path);
}

ScriptPlayer::ScriptPlayer(std::vector<ScriptEvent> events)
    : events_(std::move(events)), fired_(events_.size(), false) {}

std::vector<ScriptEvent> ScriptPlayer::due(double seconds, int64_t frames_shown) {
  std::vector<ScriptEvent> due_now;
  for (size_t i = 0; i < events_.size(); ++i) {
    if (fired_[i]) continue;
    const ScriptEvent& e = events_[i];
    const bool reached = e.trigger == ScriptTrigger::Seconds
                             ? seconds >= e.at
                             : static_cast<double>(frames_shown) >= e.at;
    if (!reached) continue;
    fired_[i] = true;
    due_now.push_back(e);
  }
  return due_now;
}

bool ScriptPlayer::finished() const {
  return std::find(fired_.begin(), fired_.end(), false) == fired_.end();
}

}  // namespace sv
