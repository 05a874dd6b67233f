// FNV-1a, 64 bits: tiny, dependency-free and the same on every platform, so what it names (the
// workload hash, cache entries, synthetic weights) is stable. An identity check, not a defence
// against deliberate collisions.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace infergate {

// The standard 64-bit offset basis.
inline constexpr uint64_t kFnv1a64OffsetBasis = 0xcbf29ce484222325ull;
// The standard basis less its last decimal digit (1469598103934665603, not ...6037). The
// synthetic weights and the host-name hash were first written with it; changing it would change
// every synthetic weight, so those callers keep passing it.
inline constexpr uint64_t kFnv1a64ShortBasis = 1469598103934665603ull;
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3ull;

// `basis` lets a caller start from another value (a seed mixed in) with the same recurrence.
constexpr uint64_t fnv1a64(std::string_view bytes, uint64_t basis = kFnv1a64OffsetBasis) {
  uint64_t hash = basis;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnv1a64Prime;
  }
  return hash;
}

// 16 lower-case hex digits of fnv1a64(bytes).
inline std::string fnv1a64_hex(std::string_view bytes) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
  return hex;
}

}  // namespace infergate
