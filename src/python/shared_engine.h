#pragma once

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

#include "src/core/frame_budget.h"
#include "src/core/stereo_engine.h"

namespace sv::python {

// One engine that the Python threads sharing a Matcher use at once. Each frame is bound to the
// ticket its submit() returned, so a thread never receives another thread's result: collecting
// a ticket keeps the frames of earlier tickets it meets for their own owners. compute() runs
// submit and collect as one step. Every call takes the engine's lock and may wait for another
// thread's frame, so callers release the GIL first (a thread waiting here holds no GIL).
class SharedEngine {
 public:
  explicit SharedEngine(const std::string& engine_kind);

  std::string name() const;
  // What choosing the engine said (e.g. why "auto" took the CPU), and what it said since.
  std::string notices() const;
  // FrameDoesNotFitError before any of the frame's memory is taken (frame_budget.h); a frame
  // slower than kSlowFrameSeconds adds a line to notices().
  void require_frame_fits(int width, int height, const StereoParams& params);

  uint64_t submit(const FrameRequest& request);
  // The frame of `ticket`, waiting for it; throws that frame's error, and InputError for a
  // ticket that was never handed out or was collected already.
  DisparityResult collect(uint64_t ticket);
  DisparityResult compute(const FrameRequest& request);

 private:
  struct Outcome {
    DisparityResult result;
    std::exception_ptr error;
  };
  DisparityResult collect_locked(uint64_t ticket);

  mutable std::mutex mutex_;
  std::ostringstream notices_;  // the engine writes to it for as long as it lives
  std::unique_ptr<StereoEngine> engine_;
  FrameBudget budget_;
  uint64_t next_ticket_ = 0;       // the next submit's
  uint64_t oldest_in_engine_ = 0;  // the ticket of the engine's oldest frame
  std::map<uint64_t, Outcome> kept_;  // collected on behalf of tickets not asked for yet
};

}  // namespace sv::python
