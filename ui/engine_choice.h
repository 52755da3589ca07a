#pragma once

#include <string>

namespace sv {

// The engine box of the panel: the kind (auto, cpu, cuda) the processing thread accepted, a
// switch in flight and why the last one was refused. The box shows the accepted kind, never a
// request the thread turned down (e.g. cuda without a device: the CPU engine keeps running).
// Fed with the processing thread's messages (ProcessingThread::take_messages).
class EngineChoice {
 public:
  explicit EngineChoice(std::string kind = "auto") : kind_(std::move(kind)) {}

  // The panel or a script asks for `kind`; true when the processing thread must be asked. The
  // kind running needs nothing, nor does the kind just refused: it stays refused (the thread
  // says a repeated failure only once) until another switch works.
  bool request(const std::string& kind);
  // One message of the processing thread: "engine: NAME" accepts the request in flight,
  // "error: engine KIND: WHY" refuses it. Other messages are ignored.
  void observe(const std::string& message);

  const std::string& kind() const { return kind_; }        // what the box shows
  const std::string& pending() const { return pending_; }  // the request in flight, or ""
  const std::string& refusal() const { return refusal_; }  // "" once a switch worked

 private:
  std::string kind_;
  std::string pending_;
  std::string refusal_;
  std::string refused_kind_;
};

}  // namespace sv
