#pragma once

#include <ostream>

#include "src/app/cli_options.h"

namespace sv {

// `stereoview eval`: the engine chosen by --engine applied to every pair of --dataset.
int run_eval(const CliOptions& options, std::ostream& out, std::ostream& err);

}  // namespace sv
