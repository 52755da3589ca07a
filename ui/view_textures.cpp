#include "ui/view_textures.h"

#include <string>

#include "src/core/error.h"
#include "ui/gl_check.h"

namespace sv {

const char* display_path_name(DisplayPath path) {
  return path == DisplayPath::Interop ? "CUDA-GL interop" : "host upload";
}

ViewTextures::ViewTextures() {
  glGenTextures(kCount, textures_);
  for (GLuint texture : textures_) {
    glBindTexture(GL_TEXTURE_2D, texture);
    // Nearest when magnified, so zooming in shows the real pixels a readout refers to.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("creating the view textures");
}

ViewTextures::~ViewTextures() { glDeleteTextures(kCount, textures_); }

bool ViewTextures::ensure_size(int width, int height) {
  if (width == width_ && height == height_) return false;
  for (GLuint texture : textures_) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("allocating the view textures");
  width_ = width;
  height_ = height;
  has_content_ = false;
  ++storage_generation_;
  return true;
}

void ViewTextures::upload(ViewImage image, const ImageRgb8& pixels, const char* what) {
  if (!pixels.same_size(width_, height_)) {
    throw RuntimeError(std::string(what) + ": image of " + std::to_string(pixels.width()) + "x" +
                       std::to_string(pixels.height()) + " for textures of " +
                       std::to_string(width_) + "x" + std::to_string(height_));
  }
  glBindTexture(GL_TEXTURE_2D, texture(image));
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // Rgb8 rows are tightly packed, 3 bytes a pixel
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE,
                  pixels.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl(what);
}

void ViewTextures::upload_views_from_host(const ImageRgb8& left, const ImageRgb8& right) {
  upload(ViewImage::Left, left, "uploading the left view");
  upload(ViewImage::Right, right, "uploading the right view");
  views_path_ = DisplayPath::HostUpload;
}

void ViewTextures::upload_confidence_from_host(const ImageRgb8& colorized) {
  upload(ViewImage::Confidence, colorized, "uploading the confidence view");
}

void ViewTextures::upload_ab_from_host(const ImageRgb8& disparity_b, const ImageRgb8& difference) {
  upload(ViewImage::DisparityB, disparity_b, "uploading the B disparity view");
  upload(ViewImage::Difference, difference, "uploading the A/B difference view");
}

void ViewTextures::upload_disparity_from_host(const ImageRgb8& colorized) {
  upload(ViewImage::Disparity, colorized, "uploading the disparity view");
  has_content_ = true;
  path_ = DisplayPath::HostUpload;
}

}  // namespace sv
