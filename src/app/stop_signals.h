#pragma once

namespace sv {

// Ctrl-C (SIGINT) and SIGTERM as requests to stop: the first one only sets a flag that the frame
// loops check, so they end cleanly (the queued frames are written, the recording and its sidecar
// finished); a second one ends the process at once, as the signal's default action would.
// Installed by the programs' main() for the runs that check the flag. A signal ignored when the
// program started (a background job of a shell script) stays ignored.
void install_stop_signal_handlers();

// 0 until SIGINT or SIGTERM arrived (with the handlers installed), then that signal's number.
int stop_signal();

// 128 + signal, the exit status a shell reports for a process the signal ended: 130 for SIGINT,
// 143 for SIGTERM.
int exit_code_for_signal(int signal);

// Ignores SIGXFSZ, so that a write past a file size limit (RLIMIT_FSIZE) fails with EFBIG and is
// reported like a full disk, instead of killing the process.
void ignore_file_size_signal();

}  // namespace sv
