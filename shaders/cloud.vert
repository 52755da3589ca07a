#version 330 core
// The 3D view: points of the cloud, and the grid, axes and frustum lines, in the stereo camera's
// frame (src/core/point_cloud_math.h). A hidden point (alpha 0) goes outside the clip volume,
// so it is never drawn.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_colour;
uniform mat4 u_cloud_to_clip;
uniform float u_point_size;
out vec3 v_colour;

void main() {
  v_colour = a_colour.rgb;
  gl_Position = a_colour.a > 0.0 ? u_cloud_to_clip * vec4(a_position, 1.0)
                                 : vec4(2.0, 2.0, 2.0, 1.0);
  gl_PointSize = u_point_size;
}
