#pragma once

// Host launchers of the confidence and repair stages (confidence.cu, disparity_repair.cu), with
// the conventions of stages.h: device pointers, dense images, the pipeline's stream, launches
// checked, nothing synchronized. Each reproduces its CPU reference in src/core/confidence.cpp
// and src/core/disparity_repair.cpp: disparities bit for bit; confidences are computed with the
// same float operations in the same order (confidence_math.h, no fused multiply-add), so they
// are expected equal too, and the tests allow 1e-6.

#include <cuda_runtime.h>

#include <cstdint>

#include "src/core/confidence.h"
#include "src/core/disparity_repair.h"

namespace sv::cuda {

// cost_peaks: per pixel (best, runner_up) of a cost volume [y][x][k] of `count` candidates,
// +inf for "none" (T: uint8_t, uint16_t, uint32_t, float). The fused selection
// (select_disparity_from_*, stages.h) writes the same values as it selects.
template <typename T>
void cost_peaks(const T* costs, int width, int height, int count, float2* peaks,
                cudaStream_t stream);

// The right view in fixed point from the fused selection's keys (cost << 8 | k, all ones where
// nothing was offered): (base + k) * 16, or invalid. Gives right_view_disparity's image.
void right_view_from_keys(const uint32_t* keys, int width, int height, int base,
                          int16_t* right_fixed, cudaStream_t stream);

// texture_deviation over a window_width x window_height window (odd), border replicated.
void texture_deviation(const uint8_t* image, int width, int height, int window_width,
                       int window_height, float* texture, cudaStream_t stream);

// combined_confidence; `right_view` null: no LR term.
void combined_confidence(const int16_t* disparity_fixed, const float2* peaks, const float* texture,
                         const int16_t* right_view, int width, int height,
                         const ConfidenceSettings& settings, float* confidence,
                         cudaStream_t stream);

// apply_confidence_threshold (0 = off: nothing is launched).
void apply_confidence_threshold(int16_t* disparity_fixed, const float* confidence, int width,
                                int height, float threshold, cudaStream_t stream);

// disparity_repair.cu — repair_disparity in place: the three passes alternate between the images
// and the scratch buffers (width * height each), and the result is copied back.
void repair_disparity(int16_t* disparity_fixed, float* confidence, int width, int height,
                      const RepairSettings& settings, int16_t* disparity_scratch,
                      float* confidence_scratch, cudaStream_t stream);

}  // namespace sv::cuda
