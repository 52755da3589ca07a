#pragma once

#include <string>
#include <vector>

#include "src/core/evaluation.h"
#include "src/core/image.h"

namespace sv {

// `stereoview eval --out DIR`: pictures of every pair and one summary page.
//   NAME-disparity.png  the estimate (left half) beside the ground truth (right half), both
//                       through turbo on the ground truth's [min, max], so equal colours are
//                       equal disparities; invalid and unknown pixels magenta. 2W x H.
//   NAME-errors.png     error_map (error_map.h): the pixels bad-1 counts, in colour over the
//                       dimmed left view, occluded ones apart. W x H.
//   summary.md          the table eval prints, then each pair's caption and both pictures.
// NAME is the pair's name with every character outside [A-Za-z0-9._-] made '_' (KITTI's
// "folder/frame"), with "-2", "-3"... after a name already taken. Files appear whole or not at
// all (atomic_file.h); a failure throws RuntimeError naming the file.
class EvalPictures {
 public:
  // Creates `dir` and its parents (RuntimeError naming --out when it cannot).
  explicit EvalPictures(std::string dir);

  void add_pair(const std::string& name, const std::string& caption, const ImageRgb8& left,
                const ImageF32& estimate, const ImageF32& ground_truth,
                const EvaluationMasks& masks);
  // `table`: the text table as printed.
  void write_summary(const std::string& title, const std::string& table) const;

  static std::string file_stem(const std::string& pair_name);

 private:
  struct Entry {
    std::string name, caption, stem;
  };
  std::string dir_;
  std::vector<Entry> entries_;
};

}  // namespace sv
