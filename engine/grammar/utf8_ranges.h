// A range of Unicode code points as UTF-8 byte sequences: each sequence is a list of byte
// ranges, one per byte, and a code point is in [lo, hi] exactly when its encoding matches one
// of them. What lets a character class of a grammar match bytes (the token masks work on
// bytes, so a token that ends inside a character needs no special case).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace infergate {

using ByteRange = std::pair<uint8_t, uint8_t>;  // inclusive
using ByteSequence = std::vector<ByteRange>;

inline constexpr uint32_t kMaxCodePoint = 0x10FFFF;

// The sequences for [lo, hi] (lo <= hi <= kMaxCodePoint), surrogates (D800-DFFF) left out.
std::vector<ByteSequence> utf8_sequences(uint32_t lo, uint32_t hi);

}  // namespace infergate
