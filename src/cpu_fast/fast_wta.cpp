// Winner-takes-all and backward matching (winner_takes_all.cpp's EXACT DEFINITION) of a whole sum
// volume, row after row with row_selection-inl.h (which says how), parallel over rows.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_wta.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <string>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_wta.h"
#include "src/cpu_fast/row_selection-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {

void WtaRows(const PaddedVolume<int16_t>& costs, const ImageI16& bases,
             const row_selection::RowSelection& selection, ImageI16& out, ImageI16* right_view) {
  parallel_for(0, costs.height(), [&](int y) {
    ReversedRow work;
    row_selection_hwy::SelectRow(costs.pixel(0, y), bases.row(y), selection, out.row(y),
                                 right_view != nullptr ? right_view->row(y) : nullptr, work);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(WtaRows);

ImageI16 fast_winner_takes_all(const PaddedVolume<int16_t>& costs, const SearchRange& range,
                               const WtaSettings& settings, ImageI16* right_view) {
  if (settings.uniqueness < 0 || settings.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " +
                     std::to_string(settings.uniqueness) + ".");
  }
  if (!range.is_uniform() && !range.per_pixel_base().same_size(costs.width(), costs.height())) {
    throw InputError("WTA: the per-pixel search range does not match the cost volume's size.");
  }
  ImageI16 out(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (right_view != nullptr) *right_view = ImageI16(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (costs.width() == 0 || costs.height() == 0 || costs.count() == 0) return out;
  const ImageI16 bases = base_plane(range, costs.width(), costs.height());
  const auto [lowest, highest] = std::minmax_element(bases.data(), bases.data() + bases.size());
  row_selection::RowSelection selection{costs.width(), costs.count(), costs.stride(),
                                        row_selection::reversed_row_pad(*lowest, *highest, costs.stride()),
                                        settings};
  HWY_DYNAMIC_DISPATCH(WtaRows)(costs, bases, selection, out, right_view);
  return out;
}

}  // namespace sv
#endif  // HWY_ONCE
