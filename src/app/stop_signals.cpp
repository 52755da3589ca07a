#include "src/app/stop_signals.h"

#include <unistd.h>

#include <csignal>
#include <initializer_list>

namespace sv {
namespace {

volatile std::sig_atomic_t received_signal = 0;

void set_action(int signal, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress go on; the loops see the flag
  sigaction(signal, &action, nullptr);
}

extern "C" void on_stop_signal(int signal) {
  if (received_signal != 0) {
    // The second request: end now, by the signal itself, so the parent sees how it ended.
    set_action(signal, SIG_DFL);
    raise(signal);
    return;
  }
  received_signal = signal;
  static const char note[] =
      "\nstopping cleanly; a second Ctrl-C (or SIGTERM) ends the program at once\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, note, sizeof note - 1);
}

}  // namespace

void install_stop_signal_handlers() {
  for (const int signal : {SIGINT, SIGTERM}) {
    // A signal ignored when the program started stays ignored, as the convention goes (a shell
    // script's background job ignores the Ctrl-C meant for the script).
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    set_action(signal, on_stop_signal);
  }
}

int stop_signal() { return received_signal; }

int exit_code_for_signal(int signal) { return 128 + signal; }

void ignore_file_size_signal() { set_action(SIGXFSZ, SIG_IGN); }

}  // namespace sv
