#include "src/io/rectified_source.h"

namespace sv {

RectifiedSource::RectifiedSource(std::unique_ptr<FrameSource> raw, StereoCalibration calibration,
                                 double alpha, NoticeSink notices)
    : raw_(std::move(raw)),
      calibration_(std::move(calibration)),
      alpha_(alpha),
      notices_(std::move(notices)) {}

std::string RectifiedSource::describe() const {
  return raw_->describe() + ", rectified with " + calibration_.path;
}

std::optional<StereoPair> RectifiedSource::next() {
  std::optional<StereoPair> pair = raw_->next();
  if (!pair) return pair;
  if (!rectifier_ || !pair->left.same_size(rectifier_->width(), rectifier_->height())) {
    rectifier_ = std::make_unique<StereoRectifier>(calibration_, pair->left.width(),
                                                   pair->left.height(), alpha_);
    post_notice(notices_, rectifier_->summary());
  }
  rectifier_->rectify(pair->left, pair->right);
  if (!pair->left16.empty()) rectifier_->rectify(pair->left16, pair->right16);
  if (!pair->leftf.empty()) rectifier_->rectify(pair->leftf, pair->rightf);
  return pair;
}

}  // namespace sv
