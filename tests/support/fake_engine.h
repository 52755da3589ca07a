#pragma once

// A base for the tests' stand-in engines: each frame is computed at submit() on the caller's
// thread by match(), on the gray of the request's 8-bit or colour pair (16-bit and float pairs
// are refused, as by an engine without them) (rectified on the host when the request
// carries maps), and handed back by collect() in order, with its error if it threw.
#include <deque>
#include <exception>

#include "src/core/error.h"
#include "src/core/host_pair.h"
#include "src/core/stereo_engine.h"

namespace sv::test {

class FakeEngine : public StereoEngine {
 public:
  void submit(const FrameRequest& request) override {
    Outcome outcome;
    try {
      HostPair pair = HostPair::copy_of(request, name());
      rectify_on_host(request, pair);
      switch (pair.format) {
        case PixelFormat::Gray8: outcome.result = match(pair.left8, pair.right8, request.params); break;
        case PixelFormat::Rgb8:
          outcome.result = match(to_gray(pair.left_rgb), to_gray(pair.right_rgb), request.params);
          break;
        case PixelFormat::Gray16:  // as an engine that says so in supports_high_bit_depth()
          throw InputError("the " + name() + " engine cannot take 16-bit input");
        case PixelFormat::GrayFloat: throw InputError("the " + name() + " engine cannot take float input");
      }
    } catch (...) {
      outcome.error = std::current_exception();
    }
    outcomes_.push_back(std::move(outcome));
  }
  void collect(DisparityResult& result) override {
    if (outcomes_.empty()) throw RuntimeError("collect() without a submitted frame");
    Outcome outcome = std::move(outcomes_.front());
    outcomes_.pop_front();
    if (outcome.error) std::rethrow_exception(outcome.error);
    result = std::move(outcome.result);
  }
  using StereoEngine::collect;
  int frames_in_flight() const override { return static_cast<int>(outcomes_.size()); }

 protected:
  virtual DisparityResult match(const ImageU8& left, const ImageU8& right,
                                const StereoParams& params) = 0;

 private:
  struct Outcome {
    DisparityResult result;
    std::exception_ptr error;
  };
  std::deque<Outcome> outcomes_;
};

}  // namespace sv::test
