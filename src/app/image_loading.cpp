#include "src/app/image_loading.h"

#include <algorithm>
#include <cctype>

#include "src/core/error.h"
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
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool is_netpbm(const std::string& ext) { return ext == "pgm" || ext == "ppm" || ext == "pnm"; }

}  // namespace

ImageU8 load_gray_image(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (is_netpbm(ext)) return to_gray(read_ppm(path));
#ifdef STEREOVIEW_HAS_OPENCV
  return read_image_gray(path);
#else
  throw InputError(path + ": this build reads only PGM/PPM images (it was built without OpenCV)");
#endif
}

std::string save_color_image(const std::string& path_without_extension, const ImageRgb8& image) {
#ifdef STEREOVIEW_HAS_OPENCV
  const std::string path = path_without_extension + ".png";
  write_png(path, image);
#else
  const std::string path = path_without_extension + ".ppm";
  write_ppm(path, image);
#endif
  return path;
}

}  // namespace sv
