#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "src/core/point_cloud_math.h"
#include "ui/orbit_camera.h"
#include "ui/shader_program.h"
#include "ui/view_layout.h"
#include "ui/view_renderer.h"

namespace sv {

// Draws the 3D view with shaders/cloud.vert and cloud.frag: the cloud's vertex buffer as points,
// the guides as lines, depth-tested, clipped to a view cell. GL thread only.
// The vertex buffer holds one CloudVertex per disparity pixel and is filled either way the
// textures are: upload_from_host() (the host vertex builder), or the CUDA interop path
// (cuda/interop_point_cloud.*), which registers vertex_buffer() once per storage_generation(),
// writes it with the vertex kernel and calls set_vertex_count() and set_path(Interop).
class PointCloudRenderer {
 public:
  enum class Path { HostUpload, Interop };

  explicit PointCloudRenderer(const std::string& shader_dir);
  ~PointCloudRenderer();
  PointCloudRenderer(const PointCloudRenderer&) = delete;
  PointCloudRenderer& operator=(const PointCloudRenderer&) = delete;

  // (Re)allocates the vertex buffer for `count` vertices when its size differs; true when it did.
  bool ensure_capacity(size_t count);
  void upload_from_host(const std::vector<CloudVertex>& vertices);
  void set_vertex_count(size_t count) { vertex_count_ = count; }
  void set_path(Path path) { path_ = path; }
  Path path() const { return path_; }

  GLuint vertex_buffer() const { return points_buffer_; }
  size_t capacity() const { return capacity_; }
  uint64_t storage_generation() const { return storage_generation_; }

  // The cloud and `guides` (segment pairs) through `cloud_to_clip`, into `cell`.
  void draw(const Rect& cell, const Framebuffer& framebuffer, const Mat4& cloud_to_clip,
            float point_size, const std::vector<CloudVertex>& guides);
  // The GL's time for drawing the points of earlier draw() calls, ms, oldest first: each draw
  // is measured by a GL_TIME_ELAPSED query whose result is read once it is ready (a frame or
  // two later), so measuring never waits for the GL.
  std::vector<double> take_draw_times();

 private:
  void bind_layout(GLuint vertex_array, GLuint buffer);

  ShaderProgram program_;
  GLint transform_location_ = -1;
  GLint point_size_location_ = -1;
  GLuint points_array_ = 0, points_buffer_ = 0;
  GLuint lines_array_ = 0, lines_buffer_ = 0;
  size_t capacity_ = 0;
  size_t vertex_count_ = 0;
  uint64_t storage_generation_ = 0;
  Path path_ = Path::HostUpload;
  // Timer queries in flight, oldest first, and spare ones to reuse.
  std::deque<GLuint> pending_queries_;
  std::vector<GLuint> free_queries_;
};

const char* cloud_path_name(PointCloudRenderer::Path path);

}  // namespace sv
