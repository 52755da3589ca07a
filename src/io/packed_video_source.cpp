#include "src/io/packed_video_source.h"

#include "src/core/block_pool.h"
#include "src/core/error.h"
#include "src/io/video_file_reader.h"

namespace sv {
namespace {

// The 16-bit planes of a packed frame, cut as split_packed_frame cuts its views (`layout` is
// resolved and the size was checked at construction), in blocks of `pool` when it gives them.
void split_packed_gray16(const ImageU16& frame, PackedLayout layout, BlockPool* pool,
                         ImageU16& left, ImageU16& right) {
  const bool sbs = layout == PackedLayout::SideBySide;
  const int w = sbs ? frame.width() / 2 : frame.width();
  const int h = sbs ? frame.height() : frame.height() / 2;
  left = pooled_image<ImageU16>(pool, w, h);
  right = pooled_image<ImageU16>(pool, w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      left.at(x, y) = frame.at(x, y);
      right.at(x, y) = sbs ? frame.at(x + w, y) : frame.at(x, y + h);
    }
  }
}

}  // namespace

PackedVideoSource::PackedVideoSource(const std::string& path, PackedLayout layout,
                                     NoticeSink notices)
    : video_(std::make_unique<VideoFileReader>(path)), layout_(layout), notices_(std::move(notices)) {
  try {
    if (layout_ == PackedLayout::Auto) layout_ = detect_packed_layout(video_->width(), video_->height());
    // Checks the split on the frame size now rather than at the first next().
    split_packed_frame(ImageRgb8(video_->width(), video_->height()), layout_);
  } catch (const InputError& e) {
    throw InputError("video '" + path + "': " + e.what());
  }
}

PackedVideoSource::~PackedVideoSource() = default;

std::string PackedVideoSource::describe() const {
  const bool sbs = layout_ == PackedLayout::SideBySide;
  const int w = sbs ? video_->width() / 2 : video_->width();
  const int h = sbs ? video_->height() : video_->height() / 2;
  const std::string depth =
      video_->high_bit_depth() ? " " + std::to_string(video_->gray_bits()) + "-bit" : "";
  return "video " + video_->path() + " (" + packed_layout_name(layout_) + ") " +
         std::to_string(w) + "x" + std::to_string(h) + depth;
}

int64_t PackedVideoSource::frame_count() const { return video_->frame_count(); }

double PackedVideoSource::frames_per_second() const { return video_->frames_per_second(); }

std::optional<StereoPair> PackedVideoSource::next() {
  const int64_t index = video_->position();
  auto frame = video_->read();
  if (!frame) {
    if (!end_reported_ && video_->ended_early()) {
      post_notice(notices_, "video '" + video_->path() + "' ended after " +
                                std::to_string(video_->position()) + " of the " +
                                std::to_string(video_->frame_count()) +
                                " frames it announces (truncated or damaged file)");
    }
    end_reported_ = true;
    return std::nullopt;
  }
  // The planes an engine uploads go into the pool: the 16-bit ones of a 16-bit video (its views
  // are for display), else the views.
  const bool deep = !frame->gray16.empty();
  SplitViews views = split_packed_frame(frame->image, layout_, deep ? nullptr : pair_memory());
  StereoPair pair;
  pair.index = index;
  pair.timestamp_s = frame->timestamp_s;
  pair.left = std::move(views.left);
  pair.right = std::move(views.right);
  // A high bit depth video keeps its values, as 16-bit image files do (frame_source.h).
  if (deep) split_packed_gray16(frame->gray16, layout_, pair_memory(), pair.left16, pair.right16);
  return pair;
}

bool PackedVideoSource::seek(int64_t index) {
  if (!video_->seek(index)) return false;
  return true;
}

}  // namespace sv
