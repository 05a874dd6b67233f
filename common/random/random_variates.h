// Random variates drawn from the one random stream (xoshiro256**, xoshiro256.h), so a seed gives
// the same stream with every compiler and standard library. The std:: distributions are
// deliberately not used: their algorithms are implementation-defined. Continuous variates go
// through libm's log, cos and pow, whose last-bit rounding may differ between C libraries; integer
// variates (uniform_index) are exact everywhere.
#pragma once

#include <cstdint>

#include "common/random/xoshiro256.h"

namespace infergate {

// A seed for an independent sub-stream (`stream` names its purpose), so one quantity's draws do
// not shift when another quantity draws more or fewer numbers.
uint64_t substream_seed(uint64_t seed, uint64_t stream);

// Uniform in the open interval (0, 1): safe to take the logarithm of.
double uniform_open01(Xoshiro256& rng);

// Uniform integer in [0, n), without modulo bias. n must be > 0.
uint64_t uniform_index(Xoshiro256& rng, uint64_t n);

// Standard normal by Box-Muller (cosine branch; two uniforms per draw).
double standard_normal(Xoshiro256& rng);

// Exponential with the given mean.
double exponential(Xoshiro256& rng, double mean);

// Gamma with shape k > 0 and scale theta (mean k * theta): Marsaglia & Tsang (2000), with the
// x * U^(1/k) boost for k < 1.
double gamma_variate(Xoshiro256& rng, double shape, double scale);

}  // namespace infergate
