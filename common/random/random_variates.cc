#include "common/random/random_variates.h"

#include <cmath>
#include <numbers>

namespace infergate {

uint64_t substream_seed(uint64_t seed, uint64_t stream) {
  // One SplitMix64 finalizer over seed and stream: nearby seeds and streams land far apart.
  return mix64(seed + kGoldenGamma * stream);
}

double uniform_open01(Xoshiro256& rng) {
  return (static_cast<double>(rng.next_u64() >> 11) + 0.5) * 0x1.0p-53;
}

uint64_t uniform_index(Xoshiro256& rng, uint64_t n) {
  // Reject the lowest (2^64 mod n) values so every residue is equally likely.
  const uint64_t threshold = (0 - n) % n;
  uint64_t r = rng.next_u64();
  while (r < threshold) r = rng.next_u64();
  return r % n;
}

double standard_normal(Xoshiro256& rng) {
  const double u1 = uniform_open01(rng);
  const double u2 = uniform_open01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double exponential(Xoshiro256& rng, double mean) { return -mean * std::log(uniform_open01(rng)); }

double gamma_variate(Xoshiro256& rng, double shape, double scale) {
  if (shape < 1.0) {
    // Gamma(k) = Gamma(k + 1) * U^(1/k); Marsaglia-Tsang itself needs k >= 1.
    const double boost = std::pow(uniform_open01(rng), 1.0 / shape);
    return gamma_variate(rng, shape + 1.0, scale) * boost;
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = standard_normal(rng);
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = uniform_open01(rng);
    // Cheap squeeze first; the exact log test only for the few samples it does not decide.
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v * scale;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * scale;
  }
}

}  // namespace infergate
