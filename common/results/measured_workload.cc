#include "common/results/measured_workload.h"

#include <cstdio>
#include <filesystem>

namespace infergate {

namespace {

void relativize(nlohmann::json& doc, const char* pointer, const std::string& base_dir) {
  const nlohmann::json::json_pointer ptr(pointer);
  if (base_dir.empty() || !doc.contains(ptr) || !doc[ptr].is_string()) return;
  const std::filesystem::path p(doc[ptr].get<std::string>());
  if (p.is_absolute()) doc[ptr] = p.lexically_relative(base_dir).generic_string();
}

}  // namespace

nlohmann::json measured_workload(nlohmann::json resolved) {
  for (const char* field : {"name", "description", "overrides", "repetitions", "record_requests"}) {
    resolved.erase(field);
  }
  return resolved;
}

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string measured_workload_hash(const nlohmann::json& resolved, const std::string& base_dir) {
  nlohmann::json measured = measured_workload(resolved);
  if (measured.is_object()) {
    for (const char* path : {"/dataset/path", "/target/model/gguf", "/target/model/safetensors"}) {
      relativize(measured, path, base_dir);
    }
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(fnv1a64(measured.dump())));
  return std::string("fnv1a64:") + hex;
}

}  // namespace infergate
