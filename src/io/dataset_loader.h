#pragma once

#include <string>
#include <vector>

#include "src/core/evaluation.h"
#include "src/core/image.h"

namespace sv {

// One rectified stereo pair with ground truth, as a dataset stores it.
struct StereoSample {
  std::string name;  // folder name, or "<folder>/<frame>" for KITTI frames
  ImageRgb8 left, right;
  ImageF32 ground_truth;  // left view, pixels; non-finite = unknown
  EvaluationMasks masks;
  // The search range the dataset suggests (disparities 0 .. num_disparities - 1), at most 256:
  //   Middlebury 2014: calib.txt ndisp (capped at 256); without calib.txt the GT rule below.
  //   Middlebury 2001/2003 (no range in the files): the GT rule, 16 * ceil((floor(max GT) + 1) / 16),
  //     which gives the customary tsukuba 16, venus 32, teddy 64, cones 64.
  //   KITTI: 192, the range most KITTI methods search (true disparities stay below it on nearly
  //     all frames), or the GT rule when this frame's GT needs more (capped at 256).
  int num_disparities = 0;
};

// Loads every pair of a dataset folder; the layout is recognised from the file names:
//   Middlebury 2001/2003 pair folder (ground truth 0 = unknown, value / scale):
//     im2.png, im6.png, disp2.png (/4: teddy, cones) | im2.ppm, im6.ppm, disp2.pgm (/8: venus...) |
//     scene1.row3.col3.ppm, scene1.row3.col4.ppm, truedisp.row3.col3.pgm (/16: tsukuba) |
//     im3.png, im4.png, groundtruth.png (/16: tsukuba as often redistributed);
//     optional masks nonocc.png, all.png, disc.png (255 = evaluate).
//   Middlebury 2014 scene folder: im0.png, im1.png, disp0GT.pfm (inf = unknown), optional
//     calib.txt and mask0nocc.png (its 255 pixels form the nonocc mask; no all/disc masks).
//   KITTI folder, the split folder itself or one holding training/: image_2, image_3 with
//     disp_occ_0 (ground truth) and/or disp_noc_0 (its known pixels form the nonocc mask);
//     16-bit PNG value / 256, 0 = unknown. KITTI 2012's colored_0/colored_1 or image_0/image_1
//     with disp_occ/disp_noc are read the same way. Every left frame that has ground truth.
//   A collection: a folder whose subfolders (or their subfolders, two levels at most) are any of
//     the above; unrecognised subfolders are skipped; samples come sorted by folder name.
// Throws InputError for an unknown layout (listing what was looked for), a missing ground truth
// file in a recognised layout, unreadable files or mismatched sizes.
std::vector<StereoSample> load_dataset(const std::string& dir);

// The layout load_dataset would use, for messages: "middlebury-2001-2003", "middlebury-2014",
// "kitti", "collection", "unknown", or "not-a-folder".
std::string detect_layout(const std::string& dir);

}  // namespace sv
