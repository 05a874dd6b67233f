// The statistics' random stream: the bootstrap's resamples and the change-point detector's
// permutations are the same on every platform for a given seed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace infergate {

// xoshiro256** (Blackman and Vigna), seeded through splitmix64: fast, and the same stream on
// every platform.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    for (uint64_t& word : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform index in [0, n) by multiply-shift of the top 32 bits (Lemire, without rejection):
  // the bias is below n / 2^32, immaterial for resampling a few thousand items.
  size_t index(size_t n) { return static_cast<size_t>(((next() >> 32) * n) >> 32); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace infergate
