// stereoview-viewer: the desktop viewer (ui/). Exit codes: 0 success, 1 runtime error,
// 2 usage error, each with a one-line reason on stderr; 130 / 143 when SIGINT / SIGTERM closed
// it (as Q would: a recording is finished cleanly).
#include <exception>
#include <iostream>

#include "src/app/source_factory.h"
#include "ui/output_paths.h"
#include "src/app/stop_signals.h"
#include "src/app/version.h"
#include "ui/viewer_app.h"
#include "ui/viewer_options.h"

int main(int argc, char** argv) {
  sv::ignore_file_size_signal();
  sv::ViewerOptions options;
  try {
    options = sv::parse_viewer_options(argc, argv);
  } catch (const sv::ViewerUsageError& e) {
    std::cerr << "stereoview-viewer: " << e.what() << "\n(see stereoview-viewer --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stereoview-viewer: " << e.what() << "\n";
    return 2;
  }
  if (options.help) {
    std::cout << sv::viewer_usage();
    return 0;
  }
  if (options.version) {
    std::cout << sv::version_line("stereoview-viewer") << "\n";
    return 0;
  }
  if (options.list_cameras) {
    std::cout << sv::describe_attached_cameras();
    return 0;
  }
  try {
    sv::check_output_paths(options);
    sv::install_stop_signal_handlers();  // the frame loop checks for them and closes
    const int code = sv::run_viewer(options);
    const int signal = sv::stop_signal();
    return signal != 0 ? sv::exit_code_for_signal(signal) : code;
  } catch (const std::exception& e) {
    std::cerr << "stereoview-viewer: " << e.what() << "\n";
    return 1;
  }
}
