#version 330 core
// A view: the base texture (left, right or the colorized disparity), optionally blended with an
// overlay (the colorized disparity over the left view). Colours are already final: the
// colormap is applied once, by the same code as the CLI's PNGs (src/core/colormap_math.h).
in vec2 v_uv;
uniform sampler2D u_base;
uniform sampler2D u_overlay;
uniform float u_overlay_alpha;  // 0: base only, 1: overlay only
out vec4 frag_color;

void main() {
  vec3 base = texture(u_base, v_uv).rgb;
  vec3 overlay = texture(u_overlay, v_uv).rgb;
  frag_color = vec4(mix(base, overlay, u_overlay_alpha), 1.0);
}
