#include "engine/grammar/utf8_ranges.h"

#include <stdexcept>

namespace infergate {

namespace {

int encoded_length(uint32_t c) { return c <= 0x7F ? 1 : c <= 0x7FF ? 2 : c <= 0xFFFF ? 3 : 4; }

std::vector<uint8_t> encode(uint32_t c) {
  switch (encoded_length(c)) {
    case 1:
      return {uint8_t(c)};
    case 2:
      return {uint8_t(0xC0 | (c >> 6)), uint8_t(0x80 | (c & 0x3F))};
    case 3:
      return {uint8_t(0xE0 | (c >> 12)), uint8_t(0x80 | ((c >> 6) & 0x3F)),
              uint8_t(0x80 | (c & 0x3F))};
    default:
      return {uint8_t(0xF0 | (c >> 18)), uint8_t(0x80 | ((c >> 12) & 0x3F)),
              uint8_t(0x80 | ((c >> 6) & 0x3F)), uint8_t(0x80 | (c & 0x3F))};
  }
}

// Splits until lo and hi differ only where every byte range is full (RE2's and Rust's
// utf8-ranges construction): then the byte ranges of lo's and hi's encodings are the answer.
void split(uint32_t lo, uint32_t hi, std::vector<ByteSequence>& out) {
  if (lo > hi) return;
  if (lo < 0xE000 && hi >= 0xD800) {  // surrogates are not characters
    if (lo < 0xD800) split(lo, 0xD7FF, out);
    if (hi > 0xDFFF) split(0xE000, hi, out);
    return;
  }
  for (uint32_t boundary : {0x7Fu, 0x7FFu, 0xFFFFu}) {
    if (lo <= boundary && hi > boundary) {
      split(lo, boundary, out);
      split(boundary + 1, hi, out);
      return;
    }
  }
  const int n = encoded_length(lo);
  for (int i = 1; i < n; ++i) {
    const uint32_t m = (1u << (6 * i)) - 1;
    if ((lo & ~m) != (hi & ~m)) {
      if ((lo & m) != 0) {
        split(lo, lo | m, out);
        split((lo | m) + 1, hi, out);
        return;
      }
      if ((hi & m) != m) {
        split(lo, (hi & ~m) - 1, out);
        split(hi & ~m, hi, out);
        return;
      }
    }
  }
  const std::vector<uint8_t> a = encode(lo), b = encode(hi);
  ByteSequence seq;
  for (size_t i = 0; i < a.size(); ++i) seq.emplace_back(a[i], b[i]);
  out.push_back(std::move(seq));
}

}  // namespace

std::vector<ByteSequence> utf8_sequences(uint32_t lo, uint32_t hi) {
  if (lo > hi || hi > kMaxCodePoint) {
    throw std::invalid_argument("utf8_sequences: bad code point range");
  }
  std::vector<ByteSequence> out;
  split(lo, hi, out);
  return out;
}

}  // namespace infergate
