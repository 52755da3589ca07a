#pragma once

#include <string>

#include "src/io/stereo_calibration.h"

namespace sv {

// Whether a text is a ZED factory calibration (SN<serial>.conf): an ini file with [STEREO] or
// [LEFT_CAM_...] sections.
bool is_zed_conf(const std::string& text);

// A ZED .conf: per resolution (2K 2208x1242, FHD 1920x1080, FHD1200 1920x1200, HD 1280x720,
// SVGA 960x600, VGA 672x376) the sections [LEFT_CAM_<res>] and [RIGHT_CAM_<res>] with fx fy cx
// cy k1 k2 p1 p2 k3 (k4 k5 k6 too for the rational model), and [STEREO] with Baseline (mm), TY
// and TZ (mm, 0 when absent) and the rotation CV_<res> RX_<res> RZ_<res> (radians, about y, x
// and z: the Rodrigues vector (RX, CV, RZ)). Gives one calibration per resolution in per_size
// (R and T in metres, T = (-Baseline, TY, TZ)), each naming its sections in its path, so the
// rectifier picks the one for the source's size and says which. InputError naming the file and
// the missing or unusable key; a resolution whose sections are incomplete is an error too.
StereoCalibration read_zed_conf(const std::string& path, const std::string& text);

}  // namespace sv
