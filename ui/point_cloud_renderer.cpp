#include "ui/point_cloud_renderer.h"

#include <cmath>
#include <cstddef>

#include "ui/gl_check.h"

namespace sv {

const char* cloud_path_name(PointCloudRenderer::Path path) {
  return path == PointCloudRenderer::Path::Interop ? "CUDA-GL interop" : "host upload";
}

PointCloudRenderer::PointCloudRenderer(const std::string& shader_dir)
    : program_(shader_dir + "/cloud.vert", shader_dir + "/cloud.frag") {
  transform_location_ = program_.uniform("u_cloud_to_clip");
  point_size_location_ = program_.uniform("u_point_size");
  glGenVertexArrays(1, &points_array_);
  glGenBuffers(1, &points_buffer_);
  glGenVertexArrays(1, &lines_array_);
  glGenBuffers(1, &lines_buffer_);
  bind_layout(points_array_, points_buffer_);
  bind_layout(lines_array_, lines_buffer_);
  check_gl("setting up the 3D view");
}

PointCloudRenderer::~PointCloudRenderer() {
  for (const GLuint query : pending_queries_) glDeleteQueries(1, &query);
  for (const GLuint query : free_queries_) glDeleteQueries(1, &query);
  glDeleteBuffers(1, &points_buffer_);
  glDeleteBuffers(1, &lines_buffer_);
  glDeleteVertexArrays(1, &points_array_);
  glDeleteVertexArrays(1, &lines_array_);
}

void PointCloudRenderer::bind_layout(GLuint vertex_array, GLuint buffer) {
  glBindVertexArray(vertex_array);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(CloudVertex),
                        reinterpret_cast<const void*>(offsetof(CloudVertex, x)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(CloudVertex),
                        reinterpret_cast<const void*>(offsetof(CloudVertex, r)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

bool PointCloudRenderer::ensure_capacity(size_t count) {
  if (count == capacity_) return false;
  glBindBuffer(GL_ARRAY_BUFFER, points_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(count * sizeof(CloudVertex)), nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("allocating the point cloud's vertex buffer");
  capacity_ = count;
  vertex_count_ = 0;
  ++storage_generation_;
  return true;
}

void PointCloudRenderer::upload_from_host(const std::vector<CloudVertex>& vertices) {
  ensure_capacity(vertices.size());
  glBindBuffer(GL_ARRAY_BUFFER, points_buffer_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(vertices.size() * sizeof(CloudVertex)),
                  vertices.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("uploading the point cloud");
  vertex_count_ = vertices.size();
  path_ = Path::HostUpload;
}

void PointCloudRenderer::draw(const Rect& cell, const Framebuffer& fb, const Mat4& cloud_to_clip,
                              float point_size, const std::vector<CloudVertex>& guides) {
  if (fb.width <= 0 || fb.height <= 0) return;
  const int x0 = static_cast<int>(std::lround(cell.x * fb.scale_x));
  const int x1 = static_cast<int>(std::lround((cell.x + cell.w) * fb.scale_x));
  const int y0 = static_cast<int>(std::lround(cell.y * fb.scale_y));
  const int y1 = static_cast<int>(std::lround((cell.y + cell.h) * fb.scale_y));
  if (x1 <= x0 || y1 <= y0) return;
  glViewport(x0, fb.height - y1, x1 - x0, y1 - y0);
  glEnable(GL_SCISSOR_TEST);
  glScissor(x0, fb.height - y1, x1 - x0, y1 - y0);
  glClear(GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glEnable(GL_PROGRAM_POINT_SIZE);

  glUseProgram(program_.id());
  glUniformMatrix4fv(transform_location_, 1, GL_FALSE, cloud_to_clip.m.data());
  glUniform1f(point_size_location_, point_size * fb.scale_y);
  if (vertex_count_ > 0) {
    GLuint query = 0;
    if (free_queries_.empty()) {
      glGenQueries(1, &query);
    } else {
      query = free_queries_.back();
      free_queries_.pop_back();
    }
    glBeginQuery(GL_TIME_ELAPSED, query);
    glBindVertexArray(points_array_);
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(vertex_count_));
    glEndQuery(GL_TIME_ELAPSED);
    pending_queries_.push_back(query);
  }
  if (!guides.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, lines_buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(guides.size() * sizeof(CloudVertex)),
                 guides.data(), GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(lines_array_);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(guides.size()));
  }
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, fb.width, fb.height);
  check_gl("drawing the 3D view");
}

std::vector<double> PointCloudRenderer::take_draw_times() {
  std::vector<double> times;
  while (!pending_queries_.empty()) {
    const GLuint query = pending_queries_.front();
    GLint ready = 0;
    glGetQueryObjectiv(query, GL_QUERY_RESULT_AVAILABLE, &ready);
    if (!ready) break;  // the later ones are not either
    GLuint64 nanoseconds = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &nanoseconds);
    times.push_back(static_cast<double>(nanoseconds) * 1e-6);
    pending_queries_.pop_front();
    free_queries_.push_back(query);
  }
  return times;
}

}  // namespace sv
