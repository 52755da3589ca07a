#include "ui/script_run.h"

#include <sstream>

namespace sv {

ScriptRun::ScriptRun(std::vector<ScriptEvent> events)
    : events_(events), ran_(events.size(), false), player_(std::move(events)) {}

std::vector<ScriptEvent> ScriptRun::due(double seconds, int64_t frames_shown) {
  std::vector<ScriptEvent> due_now = player_.due(seconds, frames_shown);
  // The player hands out each event once; its line number names it.
  for (const ScriptEvent& fired : due_now) {
    for (size_t i = 0; i < events_.size(); ++i) {
      if (!ran_[i] && events_[i].line == fired.line) {
        ran_[i] = true;
        break;
      }
    }
  }
  return due_now;
}

bool ScriptRun::timed_event_pending() const {
  for (size_t i = 0; i < events_.size(); ++i) {
    if (!ran_[i] && events_[i].trigger == ScriptTrigger::Seconds) return true;
  }
  return false;
}

std::vector<ScriptEvent> ScriptRun::never_ran() const {
  std::vector<ScriptEvent> left;
  for (size_t i = 0; i < events_.size(); ++i) {
    if (!ran_[i]) left.push_back(events_[i]);
  }
  return left;
}

std::string never_ran_text(const ScriptEvent& event) {
  std::ostringstream text;
  text << "script line " << event.line << " (at ";
  if (event.trigger == ScriptTrigger::Frame) {
    text << "frame " << static_cast<long long>(event.at);
  } else {
    text << event.at << " s";
  }
  text << ": " << event.text << ") never ran";
  return text.str();
}

}  // namespace sv
