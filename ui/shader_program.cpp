#include "ui/shader_program.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "src/app/data_files.h"
#include "src/core/error.h"
#include "src/core/input_file.h"

namespace sv {
namespace {

// --shader-dir names the folder, so the files are the user's: a FIFO there must not block.
std::string read_text(const std::string& path) {
  return read_small_file(path, "shader", uint64_t{1} << 20);
}

GLuint compile(GLenum stage, const std::string& path) {
  const std::string source = read_text(path);
  const char* text = source.c_str();
  const GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteShader(shader);
    throw RuntimeError("shader " + path + " does not compile:\n" + log.data());
  }
  return shader;
}

}  // namespace

std::string find_shader_dir(const std::string& override_dir) {
  std::vector<std::string> candidates;
  if (!override_dir.empty()) {
    candidates.push_back(override_dir);
  } else {
    if (const char* env = std::getenv("STEREOVIEW_SHADER_DIR"); env && *env) {
      candidates.push_back(env);
    }
    for (const std::string& dir : data_dir_candidates("shaders")) candidates.push_back(dir);
  }
  std::string tried;
  for (const std::string& dir : candidates) {
    std::error_code error;
    if (std::filesystem::exists(dir + "/view.vert", error)) return dir;
    tried += (tried.empty() ? "" : ", ") + dir;
  }
  throw RuntimeError("the viewer's shaders (view.vert, view.frag) were not found in: " + tried +
                     " (give --shader-dir DIR)");
}

ShaderProgram::ShaderProgram(const std::string& vertex_path, const std::string& fragment_path) {
  const GLuint vertex = compile(GL_VERTEX_SHADER, vertex_path);
  GLuint fragment = 0;
  try {
    fragment = compile(GL_FRAGMENT_SHADER, fragment_path);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vertex);
  glAttachShader(program_, fragment);
  glLinkProgram(program_);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetProgramiv(program_, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
    glGetProgramInfoLog(program_, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteProgram(program_);
    program_ = 0;
    throw RuntimeError("shaders " + vertex_path + " + " + fragment_path + " do not link:\n" +
                       log.data());
  }
}

ShaderProgram::~ShaderProgram() {
  if (program_) glDeleteProgram(program_);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : program_(other.program_) {
  other.program_ = 0;
}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (program_) glDeleteProgram(program_);
    program_ = other.program_;
    other.program_ = 0;
  }
  return *this;
}

}  // namespace sv
