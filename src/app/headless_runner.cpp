#include "src/app/headless_runner.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <sys/stat.h>

#include "src/app/engine_factory.h"
#include "src/app/image_loading.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/evaluation.h"
#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"

namespace sv {
namespace {

// One rectified pair to process, with ground truth when the source knows it.
struct SourceFrame {
  ImageU8 left;
  ImageU8 right;
  ImageF32 ground_truth;
  EvaluationMasks masks;
};

void make_output_dir(const std::string& dir) {
  if (mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) {
    struct stat info {};
    if (stat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return;
    throw RuntimeError("--out: \"" + dir + "\" exists and is not a folder");
  }
  throw RuntimeError("--out: cannot create folder \"" + dir + "\": " + std::strerror(errno));
}

std::string frame_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "disparity_%06d", index);
  return name;
}

}  // namespace

int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err) {
  try {
    const Colormap colormap = parse_colormap(options.colormap);
    if (!options.out_dir.empty()) make_output_dir(options.out_dir);
    std::unique_ptr<StereoEngine> engine = make_engine(options.engine, err);

    const bool synthetic = options.source == "synthetic";
    SyntheticSceneConfig scene_config;
    scene_config.width = options.width;
    scene_config.height = options.height;
    scene_config.seed = options.seed;
    scene_config.max_disparity = options.params.min_disparity + options.params.num_disparities;
    const SyntheticScene scene(scene_config);

    SourceFrame still;
    if (!synthetic) {
      still.left = load_gray_image(options.left_path);
      still.right = load_gray_image(options.right_path);
      require_matching_pair(still.left, still.right);
    }

    out << "stereoview: " << (synthetic ? "synthetic scene " + std::to_string(options.width) + "x" +
                                              std::to_string(options.height)
                                        : options.left_path + " | " + options.right_path)
        << ", algorithm " << options.params.algorithm << ", engine " << engine->name() << "\n";
    if (!options.out_dir.empty()) out << "writing disparities to " << options.out_dir << "/\n";

    const float range_min = static_cast<float>(options.params.min_disparity);
    const float range_max = range_min + options.params.num_disparities - 1;
    for (int i = 0; i < options.frames; ++i) {
      SourceFrame frame;
      if (synthetic) {
        const SyntheticFrame rendered = scene.render(i);
        frame.left = to_gray(rendered.left);
        frame.right = to_gray(rendered.right);
        frame.ground_truth = rendered.ground_truth;
        frame.masks.nonocc = rendered.nonoccluded_mask;
        frame.masks.disc = rendered.discontinuity_mask;
      } else {
        frame = still;
      }

      const DisparityResult result = engine->compute(frame.left, frame.right, options.params);
      out << "frame " << i << ": " << std::fixed << std::setprecision(1)
          << result.timings.total_ms() << " ms";
      if (!frame.ground_truth.empty()) {
        const DisparityEvaluation eval =
            evaluate_disparity(result.disparity, frame.ground_truth, frame.masks);
        const RegionErrors* nonocc = eval.find("nonocc");
        out << ", bad-1 nonocc " << std::setprecision(2) << nonocc->bad_1 << "%, density "
            << eval.density << "%";
      }
      out << "\n";

      if (!options.out_dir.empty()) {
        const std::string base = options.out_dir + "/" + frame_name(i);
        write_pfm(base + ".pfm", result.disparity);
        save_color_image(base, colorize_disparity(result.disparity, range_min, range_max, colormap));
      }
    }
    out << "done: " << options.frames << " frame" << (options.frames == 1 ? "" : "s") << "\n";
    return 0;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
