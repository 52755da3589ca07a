#version 330 core
// One image quad per view cell, generated from gl_VertexID (drawn as a 4-vertex triangle strip,
// no vertex buffer). u_rect is the image's rectangle in normalized device coordinates:
// (left, bottom, right, top). Texture row 0 is the image's top row.
uniform vec4 u_rect;
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
