#include "src/app/still_pair_source.h"

#include <algorithm>
#include <cctype>

#include "src/core/block_pool.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/image_formats.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/png_io.h"
#endif

namespace sv {
namespace {

std::string lower_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool is_netpbm(const std::string& path) {
  const std::string ext = lower_extension(path);
  return ext == "pgm" || ext == "ppm" || ext == "pnm";
}

// The colour view and, for a file with 16-bit or float samples, its full-depth gray (else left
// empty). A float file's view is set by the constructor from the pair's range.
void read_view(const std::string& path, ImageRgb8& view, ImageU16& gray16, ImageF32& grayf) {
  if (is_netpbm(path)) {
    NetpbmImage image = read_netpbm_full_depth(path);
    view = std::move(image.view);
    gray16 = std::move(image.gray16);
    return;
  }
  if (lower_extension(path) == "pfm") {  // the core's reader, so core-only builds have it too
    grayf = read_pfm(path);
    return;
  }
#ifdef STEREOVIEW_HAS_OPENCV
  FullDepthImage image = read_image_full_depth(path);
  view = std::move(image.view);
  gray16 = std::move(image.gray16);
  grayf = std::move(image.grayf);
#else
  throw InputError(path + ": this build reads only PGM/PPM images (it was built without OpenCV)");
#endif
}

std::string size_text(const ImageRgb8& image) {
  return std::to_string(image.width()) + "x" + std::to_string(image.height());
}

}  // namespace

StillPairSource::StillPairSource(const std::string& left_path, const std::string& right_path)
    : left_path_(left_path), right_path_(right_path) {
  read_view(left_path, pair_.left, pair_.left16, pair_.leftf);
  read_view(right_path, pair_.right, pair_.right16, pair_.rightf);
  if (pair_.leftf.empty() != pair_.rightf.empty()) {
    const bool left_float = !pair_.leftf.empty();
    throw InputError("'" + (left_float ? left_path : right_path) + "' has float samples but '" +
                     (left_float ? right_path : left_path) +
                     "' has integer ones: give both images as float (PFM or float TIFF)");
  }
  if (!pair_.leftf.empty()) {
    // One range for both views, as the engines use (the missing value, unknown here, aside).
    const FloatViewRange range = float_view_range(pair_.leftf, pair_.rightf, StereoParams());
    pair_.left = to_rgb(eight_bit_view(pair_.leftf, range));
    pair_.right = to_rgb(eight_bit_view(pair_.rightf, range));
  }
  if (!pair_.left.same_size(pair_.right)) {
    throw InputError("left and right images differ in size: " + size_text(pair_.left) + " vs " +
                     size_text(pair_.right) + " ('" + left_path + "' and '" + right_path + "')");
  }
  if (pair_.left16.empty() != pair_.right16.empty()) {
    const bool left_deep = !pair_.left16.empty();
    throw InputError("'" + (left_deep ? left_path : right_path) + "' has 16-bit samples but '" +
                     (left_deep ? right_path : left_path) +
                     "' has 8-bit ones: give both images at the same bit depth");
  }
}

std::optional<StereoPair> StillPairSource::next() {
  if (delivered_) return std::nullopt;
  delivered_ = true;
  // The views (and the 16-bit or float planes an engine matches instead) copied into the frame
  // loop's pooled memory when it gave some, so that the pair (which the viewer matches again at
  // every change of the parameters) goes up to a GPU without staging.
  StereoPair pair;
  pair.index = pair_.index;
  pair.timestamp_s = pair_.timestamp_s;
  pair.left = pooled_copy(pair_memory(), pair_.left);
  pair.right = pooled_copy(pair_memory(), pair_.right);
  if (!pair_.left16.empty()) {
    pair.left16 = pooled_copy(pair_memory(), pair_.left16);
    pair.right16 = pooled_copy(pair_memory(), pair_.right16);
  }
  if (!pair_.leftf.empty()) {
    pair.leftf = pooled_copy(pair_memory(), pair_.leftf);
    pair.rightf = pooled_copy(pair_memory(), pair_.rightf);
  }
  return pair;
}

bool StillPairSource::seek(int64_t index) {
  if (index != 0) return false;
  delivered_ = false;
  return true;
}

}  // namespace sv
