#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/app/param_script.h"

namespace sv {

// A --script as the viewer plays it: the events as they come due (ScriptPlayer), and what is
// left, so the run knows whether a timed event may still change something and can list the
// events that never ran when it ends.
class ScriptRun {
 public:
  explicit ScriptRun(std::vector<ScriptEvent> events = {});

  std::vector<ScriptEvent> due(double seconds, int64_t frames_shown);
  // A timed event has yet to run (it may change the parameters and bring a new frame).
  bool timed_event_pending() const;
  std::vector<ScriptEvent> never_ran() const;

 private:
  std::vector<ScriptEvent> events_;
  std::vector<bool> ran_;
  ScriptPlayer player_;
};

// "script line 3 (at frame 5: set p2 = 150) never ran"
std::string never_ran_text(const ScriptEvent& event);

}  // namespace sv
