// Where a decode worker reads a prompt's KV from: a prefill worker's UCX worker address, the
// remote key and address of the exported blocks, and the export's id to release it by. Travels
// inside JSON (the prefill answer's `kv_transfer`, the decode request's `kv_transfer.source`), the
// binary parts as hex.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

struct KvSource {
  std::string worker;  // the prefill worker's UCX address (bytes)
  std::string rkey;    // packed remote key of the exported blocks (bytes)
  uint64_t address = 0;
  uint64_t export_id = 0;
  uint64_t block_nbytes = 0;
  int num_blocks = 0;  // the prompt's full blocks, from its first
};

// Upper bounds on what a request may claim, checked before anything is allocated.
inline constexpr size_t kMaxKvSourceKeyBytes = 4096;
inline constexpr int kMaxKvSourceBlocks = 1 << 20;
inline constexpr uint64_t kMaxKvBlockBytes = uint64_t(1) << 30;

nlohmann::json kv_source_to_json(const KvSource& source);
// Throws std::invalid_argument naming `path` and the field that is missing, mistyped or out
// of bounds.
KvSource kv_source_from_json(const nlohmann::json& j, const std::string& path);

}  // namespace infergate
