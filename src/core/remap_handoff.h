#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "src/core/remap.h"

namespace sv {

// Where a rectifying source's remap runs (shared/ARCHITECTURE.md: on the GPU in the CUDA
// pipeline, on the capture thread for the CPU engine). The source (RectifiedSource) attaches one
// to each pair with the maps of that pair's size; the frame loop (match_rectifying_pair) tells it
// whether its engine remaps, and from then on the source passes raw pairs through for the engine
// to rectify, or rectifies them itself again. A new size gets a new handoff (new maps), so a
// pair's maps always fit it. engine_remaps is read and written from two threads.
class RemapHandoff {
 public:
  explicit RemapHandoff(std::shared_ptr<const RectificationMaps> maps, bool engine_remaps = false)
      : maps_(std::move(maps)), engine_remaps_(engine_remaps) {}

  const std::shared_ptr<const RectificationMaps>& maps() const { return maps_; }
  bool engine_remaps() const { return engine_remaps_.load(std::memory_order_relaxed); }
  void set_engine_remaps(bool remaps) { engine_remaps_.store(remaps, std::memory_order_relaxed); }

 private:
  const std::shared_ptr<const RectificationMaps> maps_;
  std::atomic<bool> engine_remaps_;
};

}  // namespace sv
