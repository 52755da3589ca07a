#include "src/app/eval_runner.h"

#include "src/app/engine_factory.h"
#include "src/app/eval_command.h"

namespace sv {

int run_eval(const CliOptions& options, std::ostream& out, std::ostream& err) {
  try {
    std::unique_ptr<StereoEngine> engine = make_engine(options.engine, err);
    EvalOptions eval;
    eval.dataset_dir = options.dataset_dir;
    eval.params = options.params;
    eval.params_disparities_given = options.disparities_given;
    eval.json = options.json;
    eval.out_dir = options.out_dir;
    eval.engine = engine->name();
    return run_eval_command(eval, eval_compute_with(*engine, err), out, err);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
