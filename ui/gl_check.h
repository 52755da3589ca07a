#pragma once

#include <glad/gl.h>

#include <cstdio>
#include <string>

#include "src/core/error.h"

namespace sv {

// Throws RuntimeError naming `what` when GL reports an error, so a failed upload or draw becomes
// a message instead of a silently black view.
inline void check_gl(const char* what) {
  const GLenum error = glGetError();
  if (error == GL_NO_ERROR) return;
  char code[16];
  std::snprintf(code, sizeof code, "0x%04X", static_cast<unsigned>(error));
  throw RuntimeError(std::string("OpenGL error ") + code + " in " + what);
}

}  // namespace sv
