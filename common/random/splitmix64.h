// SplitMix64 (Steele, Lea and Flood): the seeding and hashing step under every random stream of
// infergate. A fixed integer recurrence, so its values are the same on every platform.
#pragma once

#include <cstdint>

namespace infergate {

inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// SplitMix64's finalizer alone: the bit mixing of one 64-bit word.
constexpr uint64_t splitmix64_finalize(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One step of the SplitMix64 stream: advances `state` and returns the next value.
constexpr uint64_t splitmix64_next(uint64_t& state) {
  return splitmix64_finalize(state += kGoldenGamma);
}

// A stateless, well-mixed hash of one word: the first value of a stream seeded with `x`.
constexpr uint64_t mix64(uint64_t x) { return splitmix64_finalize(x + kGoldenGamma); }

}  // namespace infergate
