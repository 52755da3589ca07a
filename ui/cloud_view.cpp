#include "ui/cloud_view.h"

#include <imgui.h>

#include <chrono>
#include <cstring>

#ifdef STEREOVIEW_HAS_CUDA_GL
#include "cuda/device_disparity.h"
#include "cuda/device_views.h"
#include "cuda/interop_point_cloud.h"
#endif

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

CloudProjection cloud_projection_for(const CloudInputs& inputs, int width, int height,
                                     const StereoParams& params) {
  if (inputs.geometry) {
    const StereoGeometry& g = *inputs.geometry;
    return metric_projection(g.focal_length_px, g.baseline, g.principal_x, g.principal_y,
                             g.disparity_offset_px);
  }
  if (inputs.manual.known()) {
    return metric_projection(inputs.manual.focal_px, inputs.manual.baseline_m, (width - 1) * 0.5,
                             (height - 1) * 0.5, 0.0);
  }
  return pixel_projection(width, height, params.min_disparity + params.num_disparities);
}

// What the vertices were made from: a new frame or any change of these rebuilds them.
struct CloudView::Key {
  int64_t sequence = -1;
  CloudProjection projection;
  CloudStyle style;
  bool operator==(const Key& o) const {
    return sequence == o.sequence && projection.metric == o.projection.metric &&
           std::memcmp(projection.q, o.projection.q, sizeof projection.q) == 0 &&
           style.colour == o.style.colour && style.colormap == o.style.colormap &&
           style.depth_near == o.style.depth_near && style.depth_far == o.style.depth_far &&
           style.min_confidence == o.style.min_confidence;
  }
};

CloudView::CloudView(const std::string& shader_dir, bool interop,
                     std::function<void(const std::string&)> log)
    : renderer_(shader_dir), log_(std::move(log)) {
#ifdef STEREOVIEW_HAS_CUDA_GL
  if (interop) interop_ = std::make_unique<cuda::InteropPointCloud>();
#else
  (void)interop;
#endif
}

CloudView::~CloudView() {
#ifdef STEREOVIEW_HAS_CUDA_GL
  interop_.reset();  // unregistered while the buffer and the context exist
#endif
}

CloudStyle CloudView::style_for(const CloudInputs& inputs) const {
  CloudStyle style;
  style.colour = inputs.settings.colour;
  style.colormap = static_cast<int>(inputs.colormap);
  style.min_confidence = inputs.settings.min_confidence;
  const DepthSpan span = depth_span(projection_, inputs.colour_range.lo, inputs.colour_range.hi);
  style.depth_near = span.near_z;
  style.depth_far = span.far_z;
  return style;
}

void CloudView::update(const ProcessedFrame& frame, const CloudInputs& inputs) {
  const ImageF32& disparity = frame.result.disparity;
  if (disparity.empty()) return;
  projection_ = cloud_projection_for(inputs, disparity.width(), disparity.height(), frame.params);
  scene_ = cloud_scene_for(projection_, disparity.width(), disparity.height(),
                           inputs.colour_range.lo, inputs.colour_range.hi);
  if (!camera_fitted_) {
    camera_.set_preset(inputs.settings.preset, scene_);
    camera_fitted_ = true;
  }
  Key key{frame.sequence, projection_, style_for(inputs)};
  if (key_ && *key_ == key) return;
  key_ = std::make_unique<Key>(key);
  vertex_count_ = static_cast<size_t>(disparity.width()) * disparity.height();
  const auto start = Clock::now();
  if (try_interop(frame, key.style)) {
    timings_.add(CloudTimings::Part::Build, ms_since(start));
    return;
  }
  build_host_vertices(frame, inputs);
  const auto built = Clock::now();
  timings_.add(CloudTimings::Part::Build, ms_since(start));
  resize_buffer(vertices_.size());
  renderer_.upload_from_host(vertices_);
  timings_.add(CloudTimings::Part::Upload, ms_since(built));
}

bool CloudView::try_interop(const ProcessedFrame& frame, const CloudStyle& style) {
#ifdef STEREOVIEW_HAS_CUDA_GL
  const auto* device = interop_ ? dynamic_cast<const cuda::DeviceDisparity*>(frame.result.device.get())
                                : nullptr;
  if (device == nullptr) return false;
  try {
    const auto* views = dynamic_cast<const cuda::DeviceViews*>(frame.result.device_views.get());
    const size_t count = static_cast<size_t>(device->width()) * device->height();
    resize_buffer(count);
    const ImageRgb8& left =
        frame.result.rectified_left.empty() ? frame.pair.left : frame.result.rectified_left;
    interop_->show(*device, views, left, frame.result.confidence, projection_, style,
                   renderer_.vertex_buffer(), renderer_.capacity(), renderer_.storage_generation());
    renderer_.set_vertex_count(count);
    renderer_.set_path(PointCloudRenderer::Path::Interop);
    vertices_stale_ = true;
    return true;
  } catch (const std::exception& e) {
    log_(std::string("error: CUDA-GL interop (3D view): ") + e.what() + "; using host upload");
    interop_.reset();
  }
#else
  (void)frame;
  (void)style;
#endif
  return false;
}

void CloudView::resize_buffer(size_t count) {
  if (count == renderer_.capacity()) return;
#ifdef STEREOVIEW_HAS_CUDA_GL
  // CUDA must let go of a registered buffer before GL re-specifies its storage.
  if (interop_) interop_->release();
#endif
  renderer_.ensure_capacity(count);
}

const std::vector<CloudVertex>& CloudView::host_vertices(const ProcessedFrame& frame,
                                                         const CloudInputs& inputs) {
  update(frame, inputs);  // the frame's projection and style, whatever was drawn before
  if (vertices_stale_) build_host_vertices(frame, inputs);
  return vertices_;
}

void CloudView::build_host_vertices(const ProcessedFrame& frame, const CloudInputs& inputs) {
  const ImageRgb8& left =
      frame.result.rectified_left.empty() ? frame.pair.left : frame.result.rectified_left;
  const bool left_fits = left.same_size(frame.result.disparity);
  const bool confidence_fits = frame.result.confidence.same_size(frame.result.disparity);
  build_cloud_vertices(frame.result.disparity, left_fits ? left : ImageRgb8(),
                       confidence_fits ? frame.result.confidence : ImageF32(), projection_,
                       style_for(inputs), vertices_);
  vertices_stale_ = false;
}

void CloudView::draw(const Rect& cell, const Framebuffer& framebuffer,
                     const CloudSettings& settings) {
  CloudGuideOptions guides;
  guides.grid = settings.grid;
  guides.axes = settings.axes;
  // Pixel units have no pinhole camera to draw.
  guides.frustum = settings.frustum && projection_.metric;
  const float aspect = cell.h > 0.0f ? cell.w / cell.h : 1.0f;
  renderer_.draw(cell, framebuffer, camera_.cloud_to_clip(aspect), settings.point_size,
                 cloud_guides(scene_, guides));
  for (const double ms : renderer_.take_draw_times()) timings_.add(CloudTimings::Part::Draw, ms);
}

void CloudView::show_preset(CloudViewPreset preset) {
  camera_.set_preset(preset, scene_);
  camera_fitted_ = true;
}

bool CloudView::handle_mouse(const std::vector<Rect>& cells, const std::array<ViewKind, 4>& views) {
  const ImGuiIO& io = ImGui::GetIO();
  if (drag_button_ >= 0 && !ImGui::IsMouseDown(drag_button_)) drag_button_ = -1;
  if (drag_button_ >= 0 && drag_cell_ < cells.size()) {
    if (drag_button_ == 0) {
      camera_.orbit(io.MouseDelta.x, io.MouseDelta.y);
    } else {
      camera_.pan(io.MouseDelta.x, io.MouseDelta.y, cells[drag_cell_].w, cells[drag_cell_].h);
    }
    return true;
  }
  if (io.WantCaptureMouse) return false;
  for (size_t i = 0; i < cells.size() && i < views.size(); ++i) {
    if (views[i] != ViewKind::Cloud || !cells[i].contains(io.MousePos.x, io.MousePos.y)) continue;
    if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
    if (ImGui::IsMouseDoubleClicked(0)) {
      show_preset(CloudViewPreset::Camera);
    } else {
      for (int button : {0, 1, 2}) {
        if (ImGui::IsMouseClicked(button)) {
          drag_button_ = button;
          drag_cell_ = i;
        }
      }
    }
    return true;
  }
  return false;
}

std::string CloudView::label() const {
  return projection_.metric ? "3d (metres)" : "3d (pixel units: no geometry known)";
}

}  // namespace sv
