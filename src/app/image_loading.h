#pragma once

#include <string>

#include "src/core/image.h"

namespace sv {

// Reads an input image as 8-bit gray. PGM/PPM need nothing beyond the core; other formats
// (PNG, JPEG, ...) go through the io layer when this build has OpenCV. Throws InputError naming
// the file when it is missing, unreadable or of a format this build cannot decode.
ImageU8 load_gray_image(const std::string& path);

// Writes a colour image as PNG when the build has OpenCV, else as PPM; returns the path written
// (`path_without_extension` plus the extension used).
std::string save_color_image(const std::string& path_without_extension, const ImageRgb8& image);

}  // namespace sv
