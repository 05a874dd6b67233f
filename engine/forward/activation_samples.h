// Calibration for AWQ (engine/model/awq.h): each searched site's mean |activation| per channel
// over every token, and the activations of a bounded subset of tokens for the search's loss,
// recorded by the plain reference forward.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/awq.h"

namespace infergate {

// Runs `tokens` through the reference forward of `w` (one sequence); keeps every
// ceil(n / max_rows)-th token's rows (at most max_rows, >= 1).
ActivationSamples measure_activation_samples(const ModelWeights& w,
                                             const std::vector<int32_t>& tokens, int64_t max_rows);

}  // namespace infergate
