// Where a decode worker reads a prompt's KV from: a prefill worker's UCX worker address, the
// remote key and address of the exported blocks, and the export's id to release it by; and what
// makes it trustworthy (docs/disaggregation.md, "Trust"): the arena the address lies in, the
// digest of the token ids the blocks hold, a checksum of each block's bytes, and the prefill
// worker's HMAC over all of it (kv_source_signature.h). Travels inside JSON (the prefill answer's
// `kv_transfer`, the decode request's `kv_transfer.source`), the binary parts as hex.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

struct KvSource {
  std::string worker;  // the prefill worker's UCX address (bytes)
  std::string rkey;    // packed remote key of the export arena (bytes)
  uint64_t address = 0;
  uint64_t export_id = 0;
  uint64_t block_nbytes = 0;
  int num_blocks = 0;  // the prompt's full blocks, from its first
  // The prefill worker's registered arena: the export (its blocks and canary) lies inside.
  uint64_t arena_address = 0;
  uint64_t arena_bytes = 0;
  int block_tokens = 0;         // tokens a block holds
  std::string tokens_digest;    // kv_tokens_digest of the num_blocks blocks' token ids
  std::string block_checksums;  // kv_block_checksums of the exported bytes, a block each
  std::string signature;        // HMAC-SHA-256 of the above under the shared secret
};

// Upper bounds on what a request may claim, checked before anything is allocated.
inline constexpr size_t kMaxKvSourceKeyBytes = 4096;
inline constexpr int kMaxKvSourceBlocks = 1 << 20;
inline constexpr uint64_t kMaxKvBlockBytes = uint64_t(1) << 30;
inline constexpr int kMaxKvBlockTokens = 1 << 16;
inline constexpr size_t kKvDigestBytes = 32;        // SHA-256, HMAC-SHA-256
inline constexpr size_t kKvBlockChecksumBytes = 8;  // a block's SHA-256, truncated

nlohmann::json kv_source_to_json(const KvSource& source);
// Throws std::invalid_argument naming `path` and the field that is missing, mistyped, out of
// bounds or of the wrong length. A source that parses is not yet trusted: kv_source_check.h.
KvSource kv_source_from_json(const nlohmann::json& j, const std::string& path);

}  // namespace infergate
