// When open-loop requests are sent: the gaps between consecutive scheduled sends. Definitions
// and how they compare with vLLM and LoadGen: docs/metrics.md, "Arrival processes".
#pragma once

#include <cstdint>
#include <vector>

#include "bench/workload/workload.h"
#include "common/random/xoshiro256.h"

namespace infergate {

class ArrivalProcess {
 public:
  enum class Kind { kConstant, kPoisson, kGamma };

  // From load.arrival, load.rate and load.burstiness:
  //   constant  every gap is exactly 1 / rate
  //   poisson   exponential gaps with mean 1 / rate (coefficient of variation 1)
  //   gamma     gamma gaps with shape k = burstiness and scale 1 / (rate * k): mean 1 / rate,
  //             coefficient of variation 1 / sqrt(k), as vLLM's --burstiness (k = 1 has the
  //             Poisson process's distribution, drawn through the gamma sampler).
  // Throws std::invalid_argument for an unknown arrival, a rate that is not a positive finite
  // number, or (gamma) a burstiness that is not.
  static ArrivalProcess from_load(const LoadSpec& load, uint64_t seed);

  // The gap in seconds between the previous scheduled send and the next one.
  double next_gap_s();

  Kind kind() const { return kind_; }
  double rate() const { return rate_; }

 private:
  ArrivalProcess(Kind kind, double rate, double shape, uint64_t seed);

  Kind kind_;
  double rate_;   // requests per second
  double shape_;  // gamma only
  Xoshiro256 rng_;
};

// Cumulative scheduled send times in seconds for `count` open-loop requests: the first at 0,
// each next one a gap later. Constant arrivals are exactly i / rate (computed, not summed, so
// rounding does not drift). Unlike vLLM, the schedule is not rescaled to end at count / rate:
// that would change the process it claims to sample.
std::vector<double> schedule_offsets_s(const LoadSpec& load, int count, uint64_t seed);

}  // namespace infergate
