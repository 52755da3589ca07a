#pragma once

#include <glad/gl.h>

#include <string>

namespace sv {

// The folder the GLSL files are read from, first found of: `override_dir` (--shader-dir), the
// STEREOVIEW_SHADER_DIR environment variable, then the shipped files' places (data_files.h: an
// installed tree's share/stereoview/shaders, then the source tree's shaders/). Throws
// RuntimeError listing where it looked.
std::string find_shader_dir(const std::string& override_dir);

// A linked GL program from a vertex and a fragment shader file. Compile and link errors throw
// RuntimeError with the file name and the driver's log. Owns the GL object (GL thread only).
class ShaderProgram {
 public:
  ShaderProgram() = default;
  ShaderProgram(const std::string& vertex_path, const std::string& fragment_path);
  ~ShaderProgram();
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  GLuint id() const { return program_; }
  // -1 (ignored by glUniform*) when the shader has no such uniform.
  GLint uniform(const char* name) const { return glGetUniformLocation(program_, name); }

 private:
  GLuint program_ = 0;
};

}  // namespace sv
