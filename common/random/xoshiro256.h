// The one random stream of infergate: xoshiro256** (Blackman and Vigna), its state expanded
// from the seed by SplitMix64 as the authors recommend. Both are fixed integer recurrences, so
// unlike the std:: engines and distributions the stream is the same with every compiler and
// standard library: a seed gives the same sampled tokens, datasets, schedules and bootstrap
// resamples everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/random/splitmix64.h"

namespace infergate {

class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    for (uint64_t& word : s_) word = splitmix64_next(seed);
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits (every value is a multiple of 2^-53).
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform index in [0, n) by multiply-shift of the top 32 bits (Lemire, without rejection):
  // the bias is below n / 2^32, immaterial for resampling a few thousand items. For an exact
  // draw, uniform_index() (random_variates.h).
  size_t index(size_t n) { return static_cast<size_t>(((next_u64() >> 32) * n) >> 32); }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace infergate
