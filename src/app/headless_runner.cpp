#include "src/app/headless_runner.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <limits>
#include <optional>
#include <sys/stat.h>

#include "src/app/engine_factory.h"
#include "src/app/image_loading.h"
#include "src/app/playback_pacer.h"
#include "src/app/source_factory.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/evaluation.h"
#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/dataset_source.h"
#endif

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

// A dataset's pairs come with ground truth: evaluate them like the synthetic scene.
void add_dataset_ground_truth(const FrameSource& source, int64_t index, SourceFrame& frame) {
#ifdef STEREOVIEW_HAS_OPENCV
  const auto* dataset = dynamic_cast<const DatasetSource*>(&source);
  if (!dataset) return;
  const StereoSample& sample = dataset->sample(index);
  if (!sample.ground_truth.same_size(frame.left)) return;
  frame.ground_truth = sample.ground_truth;
  frame.masks = sample.masks;
#else
  (void)source;
  (void)index;
  (void)frame;
#endif
}

std::string frame_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "disparity_%06d", index);
  return name;
}

}  // namespace

// Live sources may fail now and then (a camera reconnecting); this many failures in a row end the run.
constexpr int kMaxLiveFailuresInARow = 3;

int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err) {
  try {
    const Colormap colormap = parse_colormap(options.colormap);
    if (!options.out_dir.empty()) make_output_dir(options.out_dir);
    std::unique_ptr<StereoEngine> engine = make_engine(options.engine, err);

    // The synthetic scene is rendered here rather than through its FrameSource, because the
    // runner also wants each frame's ground truth.
    const bool synthetic = options.source == "synthetic";
    if (synthetic && !options.calib_path.empty()) {
      throw InputError("--calib applies to cameras and files; the synthetic scene is rectified");
    }
    SyntheticSceneConfig scene_config;
    scene_config.width = options.width;
    scene_config.height = options.height;
    scene_config.seed = options.seed;
    scene_config.max_disparity = options.params.min_disparity + options.params.num_disparities;
    const SyntheticScene scene(scene_config);

    const NoticeSink notices = [&err](const std::string& message) {
      err << "note: " << message << "\n";
    };
    std::unique_ptr<FrameSource> source;
    if (!synthetic) source = make_frame_source(options, notices);

    out << "stereoview: " << (synthetic ? "synthetic scene " + std::to_string(options.width) + "x" +
                                              std::to_string(options.height)
                                        : source->describe())
        << ", algorithm " << options.params.algorithm << ", engine " << engine->name() << "\n";
    if (!options.out_dir.empty()) out << "writing disparities to " << options.out_dir << "/\n";

    // A file is processed to its end unless --frames says otherwise; endless sources (the
    // synthetic scene, cameras) stop after --frames (default 1).
    const bool whole_file = !synthetic && !source->is_live() && !options.frames_given;
    const int64_t limit = whole_file ? std::numeric_limits<int64_t>::max() : options.frames;
    PlaybackPacer pacer(!options.realtime ? 0.0 : synthetic ? 30.0 : source->frames_per_second());
    if (options.realtime && !synthetic && source->frames_per_second() <= 0) {
      err << "note: the source gives no frame rate; --realtime plays it as fast as possible\n";
    }

    const float range_min = static_cast<float>(options.params.min_disparity);
    const float range_max = range_min + options.params.num_disparities - 1;
    int64_t done = 0;
    int live_failures = 0;
    while (done < limit) {
      SourceFrame frame;
      if (synthetic) {
        const SyntheticFrame rendered = scene.render(static_cast<int>(done));
        frame.left = to_gray(rendered.left);
        frame.right = to_gray(rendered.right);
        frame.ground_truth = rendered.ground_truth;
        frame.masks.nonocc = rendered.nonoccluded_mask;
        frame.masks.disc = rendered.discontinuity_mask;
      } else {
        std::optional<StereoPair> pair;
        try {
          pair = source->next();
          live_failures = 0;
        } catch (const RuntimeError& e) {
          if (!source->is_live() || ++live_failures >= kMaxLiveFailuresInARow) throw;
          err << "note: " << e.what() << "\n";
          continue;
        }
        if (!pair) break;
        frame.left = to_gray(pair->left);
        frame.right = to_gray(pair->right);
        require_matching_pair(frame.left, frame.right);
        add_dataset_ground_truth(*source, pair->index, frame);
      }
      pacer.wait();

      const DisparityResult result = engine->compute(frame.left, frame.right, options.params);
      out << "frame " << done << ": " << std::fixed << std::setprecision(1)
          << result.timings.total_ms() << " ms";
      if (!frame.ground_truth.empty()) {
        const DisparityEvaluation eval =
            evaluate_disparity(result.disparity, frame.ground_truth, frame.masks);
        if (const RegionErrors* nonocc = eval.find("nonocc")) {
          out << ", bad-1 nonocc " << std::setprecision(2) << nonocc->bad_1 << "%, density "
              << eval.density << "%";
        }
      }
      out << "\n";

      if (!options.out_dir.empty()) {
        const std::string base = options.out_dir + "/" + frame_name(static_cast<int>(done));
        write_pfm(base + ".pfm", result.disparity);
        save_color_image(base, colorize_disparity(result.disparity, range_min, range_max, colormap));
      }
      ++done;
    }
    if (done == 0) throw InputError("the source delivered no frame");
    out << "done: " << done << " frame" << (done == 1 ? "" : "s") << "\n";
    return 0;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sv
