#include "bench/dataset/length_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/random/random_variates.h"

namespace infergate {

namespace {

constexpr int kMaxLength = std::numeric_limits<int>::max();

int lower_bound_of(const LengthDistribution& d) { return std::max(1, d.min); }
int upper_bound_of(const LengthDistribution& d) { return d.max > 0 ? d.max : kMaxLength; }

// Round half away from zero, then clamp; done in double so huge draws cannot overflow an int.
int round_and_clamp(double x, const LengthDistribution& d) {
  const double rounded = std::round(x);
  const double lo = lower_bound_of(d), hi = upper_bound_of(d);
  return static_cast<int>(std::clamp(std::isnan(rounded) ? lo : rounded, lo, hi));
}

double lognormal(Xoshiro256& rng, double mean, double stddev) {
  // E[X] = exp(mu + sigma^2 / 2), Var[X] = (exp(sigma^2) - 1) E[X]^2.
  const double sigma2 = std::log1p((stddev * stddev) / (mean * mean));
  const double mu = std::log(mean) - sigma2 / 2;
  return std::exp(mu + std::sqrt(sigma2) * standard_normal(rng));
}

[[noreturn]] void reject(const char* name, const std::string& problem) {
  throw std::invalid_argument(std::string(name) + ": " + problem);
}

}  // namespace

void check_length_distribution(const LengthDistribution& d, const char* name) {
  using Kind = LengthDistribution::Kind;
  if (d.kind == Kind::kUniform && d.max < lower_bound_of(d)) {
    reject(name, "uniform needs max >= max(min, 1), got min " + std::to_string(d.min) + ", max " +
                     std::to_string(d.max));
  }
  if (d.kind == Kind::kNormal || d.kind == Kind::kLognormal) {
    if (!std::isfinite(d.mean) || !std::isfinite(d.stddev) || d.stddev < 0) {
      reject(name, "mean and stddev must be finite and stddev >= 0");
    }
    if (d.kind == Kind::kLognormal && d.mean <= 0) reject(name, "lognormal needs mean > 0");
    if (d.max > 0 && d.max < lower_bound_of(d)) reject(name, "max is below max(min, 1)");
  }
}

int sample_length(const LengthDistribution& d, Xoshiro256& rng) {
  using Kind = LengthDistribution::Kind;
  switch (d.kind) {
    case Kind::kFixed:
      return std::max(1, d.value);
    case Kind::kUniform: {
      const uint64_t span = static_cast<uint64_t>(d.max - lower_bound_of(d)) + 1;
      return lower_bound_of(d) + static_cast<int>(uniform_index(rng, span));
    }
    case Kind::kNormal:
      return round_and_clamp(d.mean + d.stddev * standard_normal(rng), d);
    case Kind::kLognormal:
      return round_and_clamp(lognormal(rng, d.mean, d.stddev), d);
  }
  return 1;
}

}  // namespace infergate
