#include "src/app/view_order_checking_source.h"

#include <algorithm>
#include <stdexcept>

#include "src/app/view_order_check.h"

namespace sv {
namespace {

std::string votes(const ViewOrderCheck& check) {
  return "+" + std::to_string(check.positive) + " -" + std::to_string(check.negative) + " of " +
         std::to_string(check.tested) + " textured blocks";
}

}  // namespace

ViewOrderCheckingSource::ViewOrderCheckingSource(std::unique_ptr<FrameSource> inner,
                                                 int max_disparity, bool views_swapped,
                                                 NoticeSink notices, ViewPreparation prepare)
    : WrappingSource(std::move(inner)),
      max_disparity_(max_disparity),
      views_swapped_(views_swapped),
      notices_(std::move(notices)),
      prepare_(std::move(prepare)) {}

std::optional<StereoPair> ViewOrderCheckingSource::next() {
  std::optional<StereoPair> pair = inner_->next();
  if (!pair || checks_left_ == 0) return pair;
  --checks_left_;
  try {
    if (judge(*pair)) checks_left_ = 0;
  } catch (const std::exception&) {
    checks_left_ = 0;  // the rectifying source above meets the same problem and reports it
  }
  return pair;
}

bool ViewOrderCheckingSource::judge(const StereoPair& pair) {
  const int search = std::max(max_disparity_, pair.left.width() / 4);
  ImageRgb8 left = pair.left, right = pair.right;
  if (prepare_) prepare_(left, right, views_swapped_);
  const ViewOrderCheck as_given = check_view_order(left, right, search);
  if (as_given.order == ViewOrder::AsExpected) return true;

  ImageRgb8 other_left = pair.right, other_right = pair.left;
  if (prepare_) prepare_(other_left, other_right, !views_swapped_);
  const ViewOrderCheck exchanged = check_view_order(other_left, other_right, search);
  if (exchanged.order != ViewOrder::AsExpected) return false;  // no clear answer either way

  post_notice(notices_,
              "the views look swapped" + std::string(views_swapped_ ? " after --swap-views" : "") +
                  ": pair " + std::to_string(pair.index) +
                  " matches at positive disparities only the other way round (as given " +
                  votes(as_given) + ", exchanged " + votes(exchanged) + "); " +
                  (views_swapped_ ? "drop --swap-views"
                                  : "if the camera named left is on the right, add --swap-views") +
                  " (in the viewer: 'swap views' under Source)");
  return true;
}

}  // namespace sv
