#include "src/io/rectified_source.h"

namespace sv {
namespace {

template <typename T>
bool sizes_fit(const ImageRgb8& view, const Image<T>& left, const Image<T>& right) {
  return left.same_size(view) && right.same_size(view);
}

}  // namespace

RectifiedSource::RectifiedSource(std::unique_ptr<FrameSource> raw, StereoCalibration calibration,
                                 double alpha, NoticeSink notices, bool views_swapped)
    : raw_(std::move(raw)),
      calibration_(std::move(calibration)),
      alpha_(alpha),
      notices_(std::move(notices)),
      views_swapped_(views_swapped) {}

std::string RectifiedSource::describe() const {
  return raw_->describe() + ", rectified with " + calibration_.path;
}

std::optional<StereoPair> RectifiedSource::next() {
  std::optional<StereoPair> pair = raw_->next();
  if (!pair) return pair;
  if (!rectifier_ || !pair->left.same_size(rectifier_->width(), rectifier_->height())) {
    rectifier_ = std::make_unique<StereoRectifier>(calibration_, pair->left.width(),
                                                   pair->left.height(), alpha_, views_swapped_);
    if (!rectifier_->size_notice().empty()) post_notice(notices_, rectifier_->size_notice());
    post_notice(notices_, rectifier_->summary());
    // The engine's answer carries over to the new size; the maps are the new rectifier's.
    const bool engine_remaps = handoff_ && handoff_->engine_remaps();
    handoff_ = rectifier_->remaps()
                   ? std::make_shared<RemapHandoff>(
                         std::make_shared<const RectificationMaps>(rectifier_->maps()),
                         engine_remaps)
                   : nullptr;
  }
  if (handoff_) {
    pair->remap = handoff_;
    if (handoff_->engine_remaps()) {
      // Planes of another size are refused here, as rectify() refuses them.
      if (!pair->right.same_size(pair->left)) rectifier_->rectify(pair->left, pair->right);
      if (!pair->left16.empty() && !sizes_fit(pair->left, pair->left16, pair->right16)) {
        rectifier_->rectify(pair->left16, pair->right16);
      }
      if (!pair->leftf.empty() && !sizes_fit(pair->left, pair->leftf, pair->rightf)) {
        rectifier_->rectify(pair->leftf, pair->rightf);
      }
      pair->needs_remap = true;
      return pair;
    }
  }
  rectifier_->rectify(pair->left, pair->right);
  if (!pair->left16.empty()) rectifier_->rectify(pair->left16, pair->right16);
  if (!pair->leftf.empty()) rectifier_->rectify(pair->leftf, pair->rightf);
  return pair;
}

}  // namespace sv
