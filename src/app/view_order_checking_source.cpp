#include "src/app/view_order_checking_source.h"

#include <algorithm>

#include "src/app/view_order_check.h"

namespace sv {

ViewOrderCheckingSource::ViewOrderCheckingSource(std::unique_ptr<FrameSource> inner,
                                                 int max_disparity, bool views_swapped,
                                                 NoticeSink notices)
    : inner_(std::move(inner)),
      max_disparity_(max_disparity),
      views_swapped_(views_swapped),
      notices_(std::move(notices)) {}

std::optional<StereoPair> ViewOrderCheckingSource::next() {
  std::optional<StereoPair> pair = inner_->next();
  if (!pair || checks_left_ == 0 || pair->needs_remap) return pair;
  --checks_left_;
  const int search = std::max(max_disparity_, pair->left.width() / 4);
  const ViewOrderCheck check = check_view_order(pair->left, pair->right, search);
  if (check.order == ViewOrder::Unclear) return pair;
  checks_left_ = 0;
  if (check.order == ViewOrder::Swapped) {
    post_notice(notices_,
                "the views look swapped" + std::string(views_swapped_ ? " after --swap-views" : "") +
                    ": " + std::to_string(check.negative) + " of " +
                    std::to_string(check.positive + check.negative) +
                    " clearly matched blocks of pair " + std::to_string(pair->index) +
                    " lie at negative disparities (each point further right in the right view "
                    "than in the left), where the search finds nothing right; " +
                    (views_swapped_ ? "drop --swap-views"
                                    : "if the camera named left is on the right, add "
                                      "--swap-views") +
                    " (in the viewer: 'swap views' under Source)");
  }
  return pair;
}

}  // namespace sv
