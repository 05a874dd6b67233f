#include "bench/workload/workload_hash.h"

#include <cstdio>

namespace infergate {

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string workload_hash(const nlohmann::json& resolved) {
  nlohmann::json measured = resolved;
  for (const char* label : {"name", "description", "overrides"}) measured.erase(label);
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(fnv1a64(measured.dump())));
  return std::string("fnv1a64:") + hex;
}

}  // namespace infergate
