#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "src/core/stereo_engine.h"

namespace sv {

// Makes the engine named by --engine: "cpu" (the SIMD CPU engine), "reference" (the CPU reference
// engine, for tests and debugging), "cuda" or "auto" (CUDA when this build has the CUDA
// engine and a device is present, otherwise the CPU engine, with a one-line notice on `notices`).
// Throws RuntimeError when "cuda" is asked for and cannot be had, saying why.
std::unique_ptr<StereoEngine> make_engine(const std::string& kind, std::ostream& notices);

// Makes an engine by its --engine name; notices go to `notices`, which must outlive the engine.
// make_engine is the real one; tests pass fakes.
using EngineFactory =
    std::function<std::unique_ptr<StereoEngine>(const std::string& kind, std::ostream& notices)>;

}  // namespace sv
