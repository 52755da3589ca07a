#include "src/app/still_pair_source.h"

#include <algorithm>
#include <cctype>

#include "src/core/error.h"
#include "src/core/image_formats.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/png_io.h"
#endif

namespace sv {
namespace {

bool is_netpbm(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == "pgm" || ext == "ppm" || ext == "pnm";
}

ImageRgb8 read_color_image(const std::string& path) {
  if (is_netpbm(path)) return read_ppm(path);
#ifdef STEREOVIEW_HAS_OPENCV
  return read_image_rgb(path);
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
  pair_.left = read_color_image(left_path);
  pair_.right = read_color_image(right_path);
  if (!pair_.left.same_size(pair_.right)) {
    throw InputError("left and right images differ in size: " + size_text(pair_.left) + " vs " +
                     size_text(pair_.right) + " ('" + left_path + "' and '" + right_path + "')");
  }
}

std::optional<StereoPair> StillPairSource::next() {
  if (delivered_) return std::nullopt;
  delivered_ = true;
  return pair_;
}

bool StillPairSource::seek(int64_t index) {
  if (index != 0) return false;
  delivered_ = false;
  return true;
}

}  // namespace sv
