#pragma once

#include <functional>
#include <string>

namespace sv {

// Where a source reports what the user should know but what is not an error ("the right video
// is shorter: stopping after 40 pairs", "camera 1 lost, reopening"). The CLI prints notices on
// stderr, the viewer shows them; an empty sink drops them.
using NoticeSink = std::function<void(const std::string&)>;

inline void post_notice(const NoticeSink& sink, const std::string& message) {
  if (sink) sink(message);
}

}  // namespace sv
