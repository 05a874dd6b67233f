// One draw from a LengthDistribution (bench/workload/workload.h): a token count >= 1.
#pragma once

#include "bench/workload/workload.h"
#include "common/random/xoshiro256.h"

namespace infergate {

// fixed: value. uniform: an integer in [min, max], every value equally likely. normal and
// lognormal: parameterized by the mean and standard deviation of the length itself (lognormal
// converts them to its log-space mu and sigma), rounded to the nearest integer (halves away from
// zero), then clamped to [min, max] (max 0: no upper bound). Never returns less than 1.
// `dist` must have passed check_length_distribution.
int sample_length(const LengthDistribution& dist, Xoshiro256& rng);

// Throws std::invalid_argument, naming `name` (e.g. "dataset.input_tokens"), for a
// distribution that cannot be sampled: uniform with max < max(min, 1); normal or lognormal with
// non-finite parameters, stddev < 0, or a max below the lower bound; lognormal with mean <= 0.
void check_length_distribution(const LengthDistribution& dist, const char* name);

}  // namespace infergate
