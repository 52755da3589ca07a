#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/app/processing_thread.h"
#include "src/core/point_cloud_vertices.h"
#include "src/io/stereo_calibration.h"
#include "ui/cloud_guides.h"
#include "ui/colour_range_tracker.h"
#include "ui/cloud_timings.h"
#include "ui/orbit_camera.h"
#include "ui/point_cloud_renderer.h"
#include "ui/viewer_settings.h"

#ifdef STEREOVIEW_HAS_CUDA_GL
namespace sv::cuda {
class InteropPointCloud;
}
#endif

namespace sv {

// What the 3D view is made from besides the frame: its geometry and colours.
struct CloudInputs {
  // The calibration's Q or the synthetic scene's cameras; else `manual` when known (the panel's
  // focal length and baseline, principal point at the image centre); else pixel units.
  std::optional<StereoGeometry> geometry;
  DepthCalibration manual;
  DisparityRange colour_range;  // the disparity view's: the depth colours and the fitted scene
  Colormap colormap = Colormap::Turbo;
  CloudSettings settings;
};

// The projection of the 3D view for `inputs` and a frame of width x height searched over
// `params` (pixel units use its search range as the depth axis).
CloudProjection cloud_projection_for(const CloudInputs& inputs, int width, int height,
                                     const StereoParams& params);

// The 3D view (ViewKind::Cloud): the frame's point cloud in its vertex buffer, the orbit camera
// and the mouse that drives it, drawn into any view cell. GL thread only. Vertices come from
// the CUDA engine's device disparity through interop where the viewer has it (the kernel writes
// the GL buffer; nothing crosses the host), else from the host vertex builder.
class CloudView {
 public:
  CloudView(const std::string& shader_dir, bool interop, std::function<void(const std::string&)> log);
  ~CloudView();
  CloudView(const CloudView&) = delete;
  CloudView& operator=(const CloudView&) = delete;

  // Brings the vertices up to date with `frame` and `inputs`; does nothing when neither changed.
  void update(const ProcessedFrame& frame, const CloudInputs& inputs);
  void draw(const Rect& cell, const Framebuffer& framebuffer, const CloudSettings& settings);
  // Puts the camera at a preset, fitted to the scene last updated.
  void show_preset(CloudViewPreset preset);
  // The next update() fits the camera to its scene again (a new source), at the --cloud-view
  // preset.
  void fit_on_next_frame() { camera_fitted_ = false; }
  // Left drag orbits, right (or middle) drag pans, the wheel zooms, a double click goes back to
  // the camera's view; only over a cell showing the 3D view (or while a drag it began goes on).
  // True when it used the mouse, so the 2D views' handling leaves it alone.
  bool handle_mouse(const std::vector<Rect>& cells, const std::array<ViewKind, 4>& views);

  // The cell's title: the units the cloud is in.
  std::string label() const;
  // The cloud of `frame` as update() shows it, on the host (the snapshot's and the recording's
  // PLY): the host path's vertices, or built on demand after the interop path.
  const std::vector<CloudVertex>& host_vertices(const ProcessedFrame& frame, const CloudInputs& inputs);
  bool metric() const { return projection_.metric; }
  PointCloudRenderer::Path path() const { return renderer_.path(); }
  const OrbitCamera& camera() const { return camera_; }
  // Its time per frame: building (or the interop call), uploading, drawing (GL).
  const CloudTimings& timings() const { return timings_; }
  size_t points() const { return vertex_count_; }

 private:
  struct Key;
  bool try_interop(const ProcessedFrame& frame, const CloudStyle& style);
  void build_host_vertices(const ProcessedFrame& frame, const CloudInputs& inputs);
  CloudStyle style_for(const CloudInputs& inputs) const;
  // Reallocates the vertex buffer for `count` vertices, unregistering it from CUDA first.
  void resize_buffer(size_t count);

  PointCloudRenderer renderer_;
  std::function<void(const std::string&)> log_;
  OrbitCamera camera_;
  bool camera_fitted_ = false;
  CloudProjection projection_;
  CloudScene scene_;
  std::vector<CloudVertex> vertices_;
  bool vertices_stale_ = true;  // vertices_ is not what the buffer holds (interop wrote it)
  std::unique_ptr<Key> key_;
  int drag_button_ = -1;  // the mouse button of a drag that began over a 3D view
  size_t drag_cell_ = 0;
#ifdef STEREOVIEW_HAS_CUDA_GL
  std::unique_ptr<cuda::InteropPointCloud> interop_;
#endif
  CloudTimings timings_;
  size_t vertex_count_ = 0;  // of the frame shown
};

}  // namespace sv
