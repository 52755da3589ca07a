#version 330 core
// The 3D view's colours are final (made by point_cloud_math.h, or the guides' own).
in vec3 v_colour;
out vec4 frag_color;

void main() { frag_color = vec4(v_colour, 1.0); }
