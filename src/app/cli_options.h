#pragma once

#include <string>
#include <vector>

#include "src/app/bench_command.h"
#include "src/core/error.h"
#include "src/core/stereo_params.h"

namespace sv {

// A malformed command line: the CLI prints the reason and exits with code 2.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

enum class CliCommand { Run, Eval, Bench, Help, Version, ListAlgorithms, SavePreset };

struct CliOptions {
  CliCommand command = CliCommand::Run;
  bool headless = false;

  // Source: the synthetic scene unless --left/--right name an image pair.
  std::string source = "synthetic";
  std::string left_path;
  std::string right_path;
  int width = 640;   // synthetic scene size
  int height = 480;
  unsigned seed = 1;

  std::string engine = "auto";
  int frames = 1;
  std::string out_dir;
  std::string colormap = "turbo";

  // Parameters: defaults, then --preset, then every --<param> flag, in that order of precedence.
  StereoParams params;
  bool disparities_given = false;  // --disparities was on the command line or in the preset

  std::string save_preset_path;  // --save-preset: write the effective parameters and exit

  // bench: its lists, counts and engine; its params are `params` above.
  BenchOptions bench;

  // eval
  std::string dataset_dir;
  bool json = false;
};

// Parses argv (argv[0] is the program). Throws UsageError with a message for the user; loads the
// preset file named by --preset (InputError if it is unreadable or malformed).
CliOptions parse_cli(int argc, const char* const* argv);

// The --help text, generated from the parameter table so every parameter is listed.
std::string usage_text();

}  // namespace sv
