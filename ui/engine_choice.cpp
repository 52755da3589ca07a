#include "ui/engine_choice.h"

namespace sv {

bool EngineChoice::request(const std::string& kind) {
  if (pending_.empty() && (kind == kind_ || kind == refused_kind_)) return false;
  if (kind == pending_) return false;
  pending_ = kind;  // overtakes one in flight: the thread takes only the newest request
  return true;
}

void EngineChoice::observe(const std::string& message) {
  if (pending_.empty()) return;
  if (message.rfind("engine: ", 0) == 0) {
    kind_ = pending_;
    pending_.clear();
    refusal_.clear();
    refused_kind_.clear();
    return;
  }
  const std::string refused = "error: engine " + pending_ + ": ";
  if (message.rfind(refused, 0) == 0) {
    refusal_ = pending_ + " refused: " + message.substr(refused.size());
    refused_kind_ = pending_;
    pending_.clear();
  }
}

}  // namespace sv
