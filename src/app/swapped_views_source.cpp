#include "src/app/swapped_views_source.h"

#include <utility>

namespace sv {

std::optional<StereoPair> SwappedViewsSource::next() {
  std::optional<StereoPair> pair = inner_->next();
  if (pair) {
    std::swap(pair->left, pair->right);
    std::swap(pair->left16, pair->right16);
    std::swap(pair->leftf, pair->rightf);
  }
  return pair;
}

}  // namespace sv
