#include "src/app/eval_pictures.h"

#include <algorithm>
#include <cmath>

#include "src/core/colorize.h"
#include "src/core/error_map.h"
#include "src/core/output_folders.h"
#include "src/io/atomic_file.h"
#include "src/io/png_io.h"

namespace sv {

namespace {

constexpr Rgb8 kNoDisparityColour{255, 0, 255};

// The finite range of the ground truth; [0, 1] when it has none.
void truth_range(const ImageF32& truth, float& lo, float& hi) {
  bool any = false;
  lo = 0.0f, hi = 1.0f;
  for (const float t : truth.pixels()) {
    if (!std::isfinite(t)) continue;
    lo = any ? std::min(lo, t) : t;
    hi = any ? std::max(hi, t) : t;
    any = true;
  }
}

ImageRgb8 side_by_side(const ImageRgb8& a, const ImageRgb8& b) {
  ImageRgb8 both(a.width() + b.width(), a.height());
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) both.at(x, y) = a.at(x, y);
    for (int x = 0; x < b.width(); ++x) both.at(a.width() + x, y) = b.at(x, y);
  }
  return both;
}

}  // namespace

EvalPictures::EvalPictures(std::string dir) : dir_(std::move(dir)) {
  create_output_folder(dir_, "--out");
}

std::string EvalPictures::file_stem(const std::string& pair_name) {
  std::string stem = pair_name.empty() ? "pair" : pair_name;
  for (char& c : stem) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    if (!plain) c = '_';
  }
  if (stem.find_first_not_of('.') == std::string::npos) stem = "pair";  // ".", ".."
  return stem;
}

void EvalPictures::add_pair(const std::string& name, const std::string& caption,
                            const ImageRgb8& left, const ImageF32& estimate,
                            const ImageF32& ground_truth, const EvaluationMasks& masks) {
  const std::string base = file_stem(name);
  std::string stem = base;
  for (int n = 2; std::any_of(entries_.begin(), entries_.end(),
                              [&](const Entry& e) { return e.stem == stem; });
       ++n) {
    stem = base + "-" + std::to_string(n);
  }
  const ImageRgb8 errors = error_map(left, estimate, ground_truth, masks);  // checks the sizes
  float lo = 0.0f, hi = 1.0f;
  truth_range(ground_truth, lo, hi);
  const ImageRgb8 pictures =
      side_by_side(colorize_disparity(estimate, lo, hi, Colormap::Turbo, kNoDisparityColour),
                   colorize_disparity(ground_truth, lo, hi, Colormap::Turbo, kNoDisparityColour));
  write_png(dir_ + "/" + stem + "-disparity.png", pictures);
  write_png(dir_ + "/" + stem + "-errors.png", errors);
  entries_.push_back({name, caption, stem});
}

void EvalPictures::write_summary(const std::string& title, const std::string& table) const {
  std::string page = "# " + title + "\n\n```\n" + table + "```\n\n";
  page +=
      "Each pair: the disparity (left) beside the ground truth (right), one colour scale, "
      "magenta where there is none; then the error map: the pixels bad-1 counts over the dimmed "
      "left view, yellow (just over 1 px) to red (4 px or more), blue where no disparity was "
      "found, purple in occluded areas.\n";
  for (const Entry& e : entries_) {
    page += "\n## " + e.name + "\n\n" + e.caption + "\n\n";
    page += "![" + e.name + ": disparity | ground truth](" + e.stem + "-disparity.png)\n\n";
    page += "![" + e.name + ": errors](" + e.stem + "-errors.png)\n";
  }
  write_file_atomically(dir_ + "/summary.md", page);
}

}  // namespace sv
