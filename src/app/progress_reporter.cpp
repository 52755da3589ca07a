#include "src/app/progress_reporter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace sv {
namespace {

std::string format_duration(double seconds) {
  const long s = std::lround(seconds);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else if (s >= 60) {
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld s", s);
  }
  return text;
}

constexpr int kBarWidth = 30;
constexpr double kTerminalRedrawS = 0.1;  // fast enough to look live, cheap on slow terminals

}  // namespace

bool stdout_is_terminal() { return isatty(STDOUT_FILENO) == 1; }

ProgressReporter::ProgressReporter(std::ostream& out, bool terminal, int64_t total,
                                   double line_interval_s)
    : out_(out),
      terminal_(terminal),
      total_(total),
      line_interval_s_(line_interval_s),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressReporter::update(int64_t done) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if (drawn_ && since < (terminal_ ? kTerminalRedrawS : line_interval_s_)) return;
  if (!drawn_ && !terminal_ && since < line_interval_s_) return;
  draw(done, false);
}

void ProgressReporter::finish(int64_t done) { draw(done, true); }

void ProgressReporter::draw(int64_t done, bool final_line) {
  const auto now = std::chrono::steady_clock::now();
  last_draw_ = now;
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double fps = elapsed > 0 ? done / elapsed : 0.0;
  const bool known = total_ > 0;
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f fps", fps);
  std::string eta;
  if (known && fps > 0 && done < total_) eta = "ETA " + format_duration((total_ - done) / fps);
  if (final_line) eta = "in " + format_duration(elapsed);
  const std::string count = std::to_string(done) + (known ? "/" + std::to_string(total_) : "") + " frames";

  if (terminal_) {
    std::string line = "\r";
    if (known) {
      const int filled = static_cast<int>(kBarWidth * std::min<int64_t>(done, total_) / total_);
      line += "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] ";
    }
    line += count + "  " + rate + (eta.empty() ? "" : "  " + eta) + "\x1b[K";  // clear the rest
    out_ << line << (final_line ? "\n" : "") << std::flush;
    return;
  }
  out_ << "progress: " << count;
  if (known) out_ << " (" << (100 * std::min<int64_t>(done, total_) / total_) << "%)";
  out_ << ", " << rate << (eta.empty() ? "" : ", " + eta) << "\n" << std::flush;
}

}  // namespace sv
