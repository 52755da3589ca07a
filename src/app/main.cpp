// stereoview's entry point: parses the command line and hands over to the command it names.
#include <iostream>

#include "src/app/calibrate_command.h"
#include "src/app/cli_options.h"
#include "src/app/data_files.h"
#include "src/app/headless_runner.h"
#include "src/app/source_factory.h"
#include "src/app/stop_signals.h"
#include "src/app/version.h"
#include "src/core/algorithm_registry.h"
#include "src/core/error.h"
#include "src/core/param_table.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/app/eval_runner.h"
#endif

namespace {

constexpr int kExitRuntimeError = 1;
constexpr int kExitUsageError = 2;

int run(const sv::CliOptions& options) {
  switch (options.command) {
    case sv::CliCommand::Help:
      std::cout << sv::usage_text();
      return 0;
    case sv::CliCommand::Version:
      std::cout << sv::version_line("stereoview") << "\n";
      return 0;
    case sv::CliCommand::ListAlgorithms:
      for (const auto& a : sv::algorithm_registry()) std::cout << a.name << "  " << a.summary << "\n";
      return 0;
    case sv::CliCommand::ListCameras:
      std::cout << sv::describe_attached_cameras();
      return 0;
    case sv::CliCommand::SavePreset:
      sv::save_preset_file(options.save_preset_path, options.params);
      std::cout << "parameters written to " << options.save_preset_path << "\n";
      return 0;
    case sv::CliCommand::Bench:
      return sv::run_bench_command(options.bench, std::cout, std::cerr);
    case sv::CliCommand::Eval:
#ifdef STEREOVIEW_HAS_OPENCV
      return sv::run_eval(options, std::cout, std::cerr);
#else
      std::cerr << "error: eval needs PNG support; this build has no OpenCV\n";
      return kExitRuntimeError;
#endif
    case sv::CliCommand::Run:
      // The run checks for Ctrl-C and SIGTERM between frames and stops cleanly (exit 130, 143).
      sv::install_stop_signal_handlers();
      if (!options.headless) {
#ifdef STEREOVIEW_VIEWER_BUILT
        const std::string viewer = sv::viewer_program_path();
        std::cerr << "note: running headless: this program has no window; the viewer, "
                  << (viewer.empty() ? "stereoview-viewer" : viewer)
                  << ", takes the same flags and shows one\n";
#else
        std::cerr << "note: running headless: this program has no window; the viewer, "
                     "stereoview-viewer, is not in this build (it needs GLFW, GLAD, Dear ImGui "
                     "and OpenCV)\n";
#endif
      }
      return sv::run_headless(options, std::cout, std::cerr);
  }
  return kExitRuntimeError;
}

}  // namespace

int main(int argc, char** argv) {
  sv::ignore_file_size_signal();
#ifdef STEREOVIEW_HAS_OPENCV
  // calibrate has flags of its own (board, model, output); it reads its views as sources do.
  if (argc > 1 && std::string(argv[1]) == "calibrate") {
    return sv::run_calibrate_command(std::vector<std::string>(argv + 2, argv + argc), std::cout,
                                     std::cerr);
  }
#endif
  sv::CliOptions options;
  try {
    options = sv::parse_cli(argc, argv);
  } catch (const sv::UsageError& e) {
    std::cerr << "error: " << e.what() << "\n(run stereoview --help for usage)\n";
    return kExitUsageError;
  } catch (const sv::InputError& e) {  // an unreadable or malformed preset file
    std::cerr << "error: " << e.what() << "\n";
    return kExitRuntimeError;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitRuntimeError;
  }
}
