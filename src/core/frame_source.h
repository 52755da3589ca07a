#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/image.h"

namespace sv {

class BlockPool;
class RemapHandoff;

// One stereo pair as a source delivers it (shared/ARCHITECTURE.md, "capture thread").
// `left`/`right` are the colour views the viewer shows; engines take their grey versions.
struct StereoPair {
  int64_t index = 0;         // frame number within the source, from 0
  double timestamp_s = 0.0;  // capture or presentation time in seconds
  ImageRgb8 left;
  ImageRgb8 right;
  // Full-depth gray of a 16-bit source (image files with 16-bit samples), empty otherwise. The
  // views above stay 8-bit (the high byte) for display and recording; engines that can match
  // 16-bit values take these instead (high_bit_depth.h, match_at_full_depth).
  ImageU16 left16;
  ImageU16 right16;
  // Float gray of a float source (PFM, 32-bit float TIFF), empty otherwise. The views above are
  // the pair's 8-bit range view (float_view_range in high_bit_depth.h); engines that can match
  // float values take these first (match_at_full_depth).
  ImageF32 leftf;
  ImageF32 rightf;
  // From a rectifying source (remap_handoff.h): how to hand its remap to the engine, and whether
  // this pair's views are still RAW (remap->maps() rectify them). Null for any other source.
  std::shared_ptr<RemapHandoff> remap;
  bool needs_remap = false;
};

// A second StereoPair over the same pooled views and 16-bit and float planes (Image::shared), the
// rest copied: the frame loops keep the pair they may have to match again and hand the engine this
// one, so a pair decoded into pooled memory reaches the engine without a host copy. Neither may
// write the views.
inline StereoPair sharing_views(const StereoPair& pair) {
  StereoPair copy;
  copy.index = pair.index;
  copy.timestamp_s = pair.timestamp_s;
  copy.left = pair.left.shared();
  copy.right = pair.right.shared();
  copy.left16 = pair.left16.shared();
  copy.right16 = pair.right16.shared();
  copy.leftf = pair.leftf.shared();
  copy.rightf = pair.rightf.shared();
  copy.remap = pair.remap;
  copy.needs_remap = pair.needs_remap;
  return copy;
}

// Where pairs come from: synthetic scene, video files, image sequences, cameras. A source is
// owned and driven by the capture thread only; next() may block while a camera waits for a
// frame. Errors (unreadable file, camera unplugged) throw InputError / RuntimeError with a
// message meant for the user.
class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // Human-readable description for the UI and logs, e.g. "synthetic 640x480".
  virtual std::string describe() const = 0;
  // Live sources drop the oldest pair when the pipeline is behind; files never drop.
  virtual bool is_live() const = 0;
  // Number of pairs, or -1 when unknown or endless (cameras, the synthetic scene).
  virtual int64_t frame_count() const { return -1; }
  // Nominal frames per second (0 when unknown): the pace for playback at the source's rate.
  virtual double frames_per_second() const { return 0.0; }
  // The next pair, or nullopt at the end of a finite source.
  virtual std::optional<StereoPair> next() = 0;
  // Jumps so that the next pair is `index` (finite sources); false when unsupported.
  virtual bool seek(int64_t /*index*/) { return false; }
  // Where the next pairs' colour views are to be written: blocks of `pool` (block_pool.h), memory
  // the engine uploads from without a copy, as long as it has free ones. Sources that render or
  // decode into memory they are given write there; the others keep their own images. The pairs
  // are the same either way, byte for byte. Null: the source's own memory again.
  virtual void use_pair_memory(std::shared_ptr<BlockPool> pool) { pair_memory_ = std::move(pool); }

 protected:
  BlockPool* pair_memory() const { return pair_memory_.get(); }

 private:
  std::shared_ptr<BlockPool> pair_memory_;
};

// A source that wraps another (--loop, --swap-views, the swapped-views check) and changes only
// part of what it does: the rest is the inner source's.
class WrappingSource : public FrameSource {
 public:
  explicit WrappingSource(std::unique_ptr<FrameSource> inner) : inner_(std::move(inner)) {}
  std::string describe() const override { return inner_->describe(); }
  bool is_live() const override { return inner_->is_live(); }
  int64_t frame_count() const override { return inner_->frame_count(); }
  double frames_per_second() const override { return inner_->frames_per_second(); }
  std::optional<StereoPair> next() override { return inner_->next(); }
  bool seek(int64_t index) override { return inner_->seek(index); }
  void use_pair_memory(std::shared_ptr<BlockPool> pool) override {
    inner_->use_pair_memory(std::move(pool));
  }

 protected:
  std::unique_ptr<FrameSource> inner_;
};

}  // namespace sv
