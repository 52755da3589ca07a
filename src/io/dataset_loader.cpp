#include "src/io/dataset_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/core/input_file.h"
#include "src/io/png_io.h"

namespace sv {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDisparities = 256;      // StereoParams' upper bound
constexpr int kKittiDisparities = 192;
constexpr int kCollectionDepth = 2;       // subfolders, and their subfolders
// Middlebury's calib.txt holds two camera matrices and a few numbers (about 200 bytes).
constexpr uint64_t kMaxCalibTextBytes = uint64_t{1} << 20;

// Middlebury 2001/2003 pair folders name their files differently per scene.
struct MiddleburyPairNaming {
  const char* left;
  const char* right;
  const char* ground_truth;
  float scale;  // stored value = disparity * scale
};
constexpr MiddleburyPairNaming kMiddleburyPairNamings[] = {
    {"im2.png", "im6.png", "disp2.png", 4.0f},
    {"im2.ppm", "im6.ppm", "disp2.pgm", 8.0f},
    {"scene1.row3.col3.ppm", "scene1.row3.col4.ppm", "truedisp.row3.col3.pgm", 16.0f},
    {"im3.png", "im4.png", "groundtruth.png", 16.0f},
};

struct KittiNaming {
  const char* left;
  const char* right;
  const char* disp_occ;
  const char* disp_noc;
};
constexpr KittiNaming kKittiNamings[] = {
    {"image_2", "image_3", "disp_occ_0", "disp_noc_0"},  // KITTI 2015
    {"colored_0", "colored_1", "disp_occ", "disp_noc"},  // KITTI 2012, colour
    {"image_0", "image_1", "disp_occ", "disp_noc"},      // KITTI 2012, gray
};

constexpr const char* kLookedFor =
    "a Middlebury 2001/2003 pair (im2.png + im6.png + disp2.png, im2.ppm + im6.ppm + disp2.pgm, "
    "scene1.row3.col3.ppm + scene1.row3.col4.ppm + truedisp.row3.col3.pgm, or im3.png + "
    "im4.png + groundtruth.png), a Middlebury 2014 scene (im0.png + im1.png + disp0GT.pfm), "
    "a KITTI folder (image_2 + image_3 + disp_occ_0 and/or disp_noc_0, directly or under "
    "training/; or KITTI 2012's colored_0/colored_1 or image_0/image_1 + disp_occ/disp_noc), "
    "or a folder whose subfolders are such datasets";

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// For the files a recognised layout reads: anything there by that name (a FIFO or a folder too)
// goes to the reader, which refuses what is not a regular file with its reason.
bool is_present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

template <typename A, typename B>
void require_same_size(const A& a, const B& b, const fs::path& a_file, const fs::path& b_file) {
  if (!a.same_size(b)) {
    throw InputError("'" + a_file.string() + "' is " + size_text(a.width(), a.height()) +
                     " but '" + b_file.string() + "' is " + size_text(b.width(), b.height()));
  }
}

// 16 * ceil((floor(max) + 1) / 16): the smallest multiple of 16 that holds every known disparity.
int disparities_for_ground_truth(const ImageF32& truth) {
  float max_disparity = 0.0f;
  for (float d : truth.pixels()) {
    if (std::isfinite(d)) max_disparity = std::max(max_disparity, d);
  }
  // Compared as a float first: a ground truth of 2^31 or more would not fit the int.
  if (max_disparity >= static_cast<float>(kMaxDisparities)) return kMaxDisparities;
  const int needed = static_cast<int>(std::floor(max_disparity)) + 1;
  return std::min(kMaxDisparities, (needed + 15) / 16 * 16);
}

// Integer ground truth (value = disparity * scale, 0 = unknown) as float with +inf unknown.
ImageF32 scaled_ground_truth(const ImageU16& stored, float scale) {
  ImageF32 truth(stored.width(), stored.height());
  for (size_t i = 0; i < stored.size(); ++i) {
    const uint16_t v = stored.data()[i];
    truth.data()[i] = v == 0 ? std::numeric_limits<float>::infinity() : v / scale;
  }
  return truth;
}

// Loads left and right and checks they match in size.
void load_pair_images(StereoSample& sample, const fs::path& left, const fs::path& right) {
  sample.left = read_image_rgb(left.string());
  sample.right = read_image_rgb(right.string());
  require_same_size(sample.left, sample.right, left, right);
}

ImageU8 load_optional_mask(const fs::path& file, const ImageRgb8& left, const fs::path& left_file) {
  if (!is_present(file)) return {};
  ImageU8 mask = read_image_gray(file.string());
  require_same_size(mask, left, file, left_file);
  return mask;
}

std::string last_name(const fs::path& dir) {
  const fs::path normal = fs::absolute(dir).lexically_normal();
  return (normal.has_filename() ? normal.filename() : normal.parent_path().filename()).string();
}

// ---- Middlebury 2001/2003 ----------------------------------------------------------------------

const MiddleburyPairNaming* find_middlebury_pair(const fs::path& dir) {
  for (const MiddleburyPairNaming& n : kMiddleburyPairNamings) {
    if (is_file(dir / n.left) && is_file(dir / n.right)) return &n;
  }
  return nullptr;
}

StereoSample load_middlebury_pair(const fs::path& dir, const MiddleburyPairNaming& n,
                                  const std::string& name) {
  const fs::path gt_file = dir / n.ground_truth;
  if (!is_present(gt_file)) {
    throw InputError("'" + dir.string() + "' holds the Middlebury pair " + n.left + " / " +
                     n.right + " but no ground truth " + n.ground_truth);
  }
  StereoSample sample;
  sample.name = name;
  load_pair_images(sample, dir / n.left, dir / n.right);
  sample.ground_truth = scaled_ground_truth(read_image_u16(gt_file.string()), n.scale);
  require_same_size(sample.ground_truth, sample.left, gt_file, dir / n.left);
  sample.masks.nonocc = load_optional_mask(dir / "nonocc.png", sample.left, dir / n.left);
  sample.masks.all = load_optional_mask(dir / "all.png", sample.left, dir / n.left);
  sample.masks.disc = load_optional_mask(dir / "disc.png", sample.left, dir / n.left);
  sample.num_disparities = disparities_for_ground_truth(sample.ground_truth);
  return sample;
}

// ---- Middlebury 2014 ---------------------------------------------------------------------------

bool is_middlebury_2014(const fs::path& dir) {
  return is_file(dir / "im0.png") && is_file(dir / "im1.png");
}

// calib.txt's "ndisp=<n>" line; 0 when absent.
int read_ndisp(const fs::path& calib) {
  std::istringstream in(read_small_file(calib.string(), "calibration", kMaxCalibTextBytes));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("ndisp=", 0) == 0) {
      try {
        return std::stoi(line.substr(6));
      } catch (const std::exception&) {
        throw InputError("'" + calib.string() + "': ndisp is not a number: " + line);
      }
    }
  }
  return 0;
}

StereoSample load_middlebury_2014(const fs::path& dir, const std::string& name) {
  const fs::path gt_file = dir / "disp0GT.pfm";
  if (!is_present(gt_file)) {
    throw InputError("'" + dir.string() +
                     "' holds the Middlebury 2014 pair im0.png / im1.png but no ground truth "
                     "disp0GT.pfm");
  }
  StereoSample sample;
  sample.name = name;
  load_pair_images(sample, dir / "im0.png", dir / "im1.png");
  sample.ground_truth = read_pfm(gt_file.string());
  require_same_size(sample.ground_truth, sample.left, gt_file, dir / "im0.png");
  sample.masks.nonocc = load_optional_mask(dir / "mask0nocc.png", sample.left, dir / "im0.png");
  const int ndisp = is_present(dir / "calib.txt") ? read_ndisp(dir / "calib.txt") : 0;
  sample.num_disparities = ndisp > 0 ? std::min(ndisp, kMaxDisparities)
                                     : disparities_for_ground_truth(sample.ground_truth);
  return sample;
}

// ---- KITTI -------------------------------------------------------------------------------------

struct KittiFolder {
  fs::path root;
  const KittiNaming* naming = nullptr;
};

KittiFolder find_kitti(const fs::path& dir) {
  for (const fs::path& root : {dir / "training", dir}) {
    for (const KittiNaming& n : kKittiNamings) {
      if (is_dir(root / n.left) && is_dir(root / n.right)) return {root, &n};
    }
  }
  return {};
}

std::vector<StereoSample> load_kitti(const KittiFolder& kitti, const std::string& prefix) {
  const KittiNaming& n = *kitti.naming;
  const fs::path occ_dir = kitti.root / n.disp_occ;
  const fs::path noc_dir = kitti.root / n.disp_noc;
  if (!is_dir(occ_dir) && !is_dir(noc_dir)) {
    throw InputError("'" + kitti.root.string() + "' holds KITTI images " + n.left + " / " +
                     n.right + " but no ground truth folder " + n.disp_occ + " or " + n.disp_noc);
  }
  std::vector<fs::path> frames;
  for (const fs::directory_entry& e : fs::directory_iterator(kitti.root / n.left)) {
    if (e.is_regular_file() && e.path().extension() == ".png") frames.push_back(e.path().filename());
  }
  std::sort(frames.begin(), frames.end());

  std::vector<StereoSample> samples;
  for (const fs::path& frame : frames) {
    const fs::path occ_file = occ_dir / frame;
    const fs::path noc_file = noc_dir / frame;
    const bool has_occ = is_present(occ_file), has_noc = is_present(noc_file);
    if (!has_occ && !has_noc) continue;  // e.g. the _11 frames of scene flow: no ground truth
    const fs::path left_file = kitti.root / n.left / frame;
    const fs::path right_file = kitti.root / n.right / frame;
    if (!is_present(right_file)) {
      throw InputError("KITTI frame '" + left_file.string() + "' has no right image '" +
                       right_file.string() + "'");
    }
    StereoSample sample;
    sample.name = prefix + frame.stem().string();
    load_pair_images(sample, left_file, right_file);
    // disp_occ covers every pixel with ground truth; disp_noc only the non-occluded ones.
    const fs::path gt_file = has_occ ? occ_file : noc_file;
    sample.ground_truth = scaled_ground_truth(read_image_u16(gt_file.string()), 256.0f);
    require_same_size(sample.ground_truth, sample.left, gt_file, left_file);
    if (has_occ && has_noc) {
      const ImageU16 noc = read_image_u16(noc_file.string());
      require_same_size(noc, sample.left, noc_file, left_file);
      sample.masks.nonocc = ImageU8(noc.width(), noc.height());
      for (size_t i = 0; i < noc.size(); ++i) sample.masks.nonocc.data()[i] = noc.data()[i] ? 255 : 0;
    }
    sample.num_disparities =
        std::max(kKittiDisparities, disparities_for_ground_truth(sample.ground_truth));
    samples.push_back(std::move(sample));
  }
  if (samples.empty()) {
    throw InputError("'" + kitti.root.string() + "': no frame of " + n.left +
                     " has a ground truth file in " + n.disp_occ + " or " + n.disp_noc);
  }
  return samples;
}

// ---- layouts -----------------------------------------------------------------------------------

enum class Layout { Unknown, MiddleburyPair, Middlebury2014, Kitti, Collection };

Layout single_layout(const fs::path& dir) {
  if (find_middlebury_pair(dir)) return Layout::MiddleburyPair;
  if (is_middlebury_2014(dir)) return Layout::Middlebury2014;
  if (find_kitti(dir).naming) return Layout::Kitti;
  return Layout::Unknown;
}

std::vector<fs::path> sorted_subfolders(const fs::path& dir) {
  std::vector<fs::path> subfolders;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.is_directory()) subfolders.push_back(e.path());
  }
  std::sort(subfolders.begin(), subfolders.end());
  return subfolders;
}

// `levels` = how many folder levels below `dir` may still hold datasets.
Layout layout_of(const fs::path& dir, int levels) {
  const Layout single = single_layout(dir);
  if (single != Layout::Unknown || levels == 0) return single;
  for (const fs::path& sub : sorted_subfolders(dir)) {
    if (layout_of(sub, levels - 1) != Layout::Unknown) return Layout::Collection;
  }
  return Layout::Unknown;
}

// `name` names the samples of `dir`: empty at the top, the relative path below it.
void load_into(const fs::path& dir, const std::string& name, int levels,
               std::vector<StereoSample>& samples) {
  const std::string own_name = name.empty() ? last_name(dir) : name;
  switch (layout_of(dir, levels)) {
    case Layout::MiddleburyPair:
      samples.push_back(load_middlebury_pair(dir, *find_middlebury_pair(dir), own_name));
      return;
    case Layout::Middlebury2014:
      samples.push_back(load_middlebury_2014(dir, own_name));
      return;
    case Layout::Kitti:
      for (StereoSample& s : load_kitti(find_kitti(dir), name.empty() ? "" : name + "/")) {
        samples.push_back(std::move(s));
      }
      return;
    case Layout::Collection:
      for (const fs::path& sub : sorted_subfolders(dir)) {
        if (layout_of(sub, levels - 1) == Layout::Unknown) continue;
        const std::string sub_name = (name.empty() ? "" : name + "/") + sub.filename().string();
        load_into(sub, sub_name, levels - 1, samples);
      }
      return;
    case Layout::Unknown:
      break;
  }
  throw InputError("'" + dir.string() + "' is not a dataset folder stereoview knows; looked for " +
                   kLookedFor);
}

}  // namespace

std::vector<StereoSample> load_dataset(const std::string& dir) {
  if (!is_dir(dir)) throw InputError("dataset folder '" + dir + "' does not exist or is not a folder");
  std::vector<StereoSample> samples;
  try {
    load_into(dir, "", kCollectionDepth, samples);
  } catch (const fs::filesystem_error& e) {
    throw InputError("cannot read dataset folder '" + dir + "': " + e.what());
  }
  return samples;
}

std::string detect_layout(const std::string& dir) {
  if (!is_dir(dir)) return "not-a-folder";
  try {
    switch (layout_of(dir, kCollectionDepth)) {
      case Layout::MiddleburyPair: return "middlebury-2001-2003";
      case Layout::Middlebury2014: return "middlebury-2014";
      case Layout::Kitti: return "kitti";
      case Layout::Collection: return "collection";
      case Layout::Unknown: break;
    }
  } catch (const fs::filesystem_error&) {
  }
  return "unknown";
}

}  // namespace sv
