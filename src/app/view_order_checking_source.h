#pragma once

#include <functional>
#include <memory>

#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// How the views a source delivers become the views the engine matches (--calib's
// rectification), with `views_swapped` as --swap-views would say: prepares `left` and `right` in
// place. Empty: the views are matched as they come.
using ViewPreparation = std::function<void(ImageRgb8& left, ImageRgb8& right, bool views_swapped)>;

// Looks at the first pairs of a source (below any rectification) until one gives a clear answer,
// at most three, and posts one notice naming --swap-views when they look swapped: prepared as
// they come, they do not match in order (check_view_order: mostly negative disparities, or no
// clear answer, as when a calibration's cameras are applied to the wrong views), and prepared
// the other way round (views exchanged, `views_swapped` toggled) they clearly do. Every pair
// passes through unchanged; a pair that cannot be prepared ends the checking (the rectifying
// source above reports why).
class ViewOrderCheckingSource : public WrappingSource {
 public:
  // `max_disparity`: the search range's end; the check looks that far, and at least a quarter
  // of the width, to either side. `views_swapped`: --swap-views was given (the inner source
  // delivers the views exchanged already).
  ViewOrderCheckingSource(std::unique_ptr<FrameSource> inner, int max_disparity,
                          bool views_swapped, NoticeSink notices, ViewPreparation prepare = {});

  std::optional<StereoPair> next() override;

 private:
  // Whether the pair settles the question (in order, or swapped and said so).
  bool judge(const StereoPair& pair);

  int max_disparity_;
  bool views_swapped_;
  NoticeSink notices_;
  ViewPreparation prepare_;
  int checks_left_ = 3;
};

}  // namespace sv
