#pragma once

#include <memory>

#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// Looks at the first pairs of a source (check_view_order, after any rectification) until one
// gives a clear answer, at most three, and posts one notice naming --swap-views when they look
// swapped; `views_swapped` (--swap-views was given) turns the advice round. Pairs still to be
// remapped by the engine (needs_remap) are not looked at. Everything else passes through.
class ViewOrderCheckingSource : public FrameSource {
 public:
  // `max_disparity`: the search range's end; the check looks that far, and at least a quarter
  // of the width, to either side.
  ViewOrderCheckingSource(std::unique_ptr<FrameSource> inner, int max_disparity,
                          bool views_swapped, NoticeSink notices);

  std::string describe() const override { return inner_->describe(); }
  bool is_live() const override { return inner_->is_live(); }
  int64_t frame_count() const override { return inner_->frame_count(); }
  double frames_per_second() const override { return inner_->frames_per_second(); }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override { return inner_->seek(index); }

 private:
  std::unique_ptr<FrameSource> inner_;
  int max_disparity_;
  bool views_swapped_;
  NoticeSink notices_;
  int checks_left_ = 3;
};

}  // namespace sv
