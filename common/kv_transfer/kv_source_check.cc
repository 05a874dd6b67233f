#include "common/kv_transfer/kv_source_check.h"

#include "common/kv_transfer/kv_digests.h"
#include "common/kv_transfer/kv_source_signature.h"

namespace infergate {

std::string kv_source_range_refusal(const KvSource& s) {
  const uint64_t export_bytes = uint64_t(s.num_blocks) * s.block_nbytes + sizeof(uint64_t);
  const bool arena_ok =
      s.arena_address != 0 && s.arena_bytes != 0 && s.arena_address <= UINT64_MAX - s.arena_bytes;
  if (!arena_ok) return "the source's arena is not a valid range";
  if (s.address < s.arena_address || s.address - s.arena_address > s.arena_bytes ||
      export_bytes > s.arena_bytes - (s.address - s.arena_address)) {
    return "the source's blocks are not inside its prefill worker's export arena";
  }
  return "";
}

namespace {

std::string geometry_refusal(const KvSource& s, const KvSourceExpectation& e) {
  if (s.block_nbytes != e.block_nbytes) {
    return "the prefill worker's KV blocks are " + std::to_string(s.block_nbytes) +
           " bytes, this worker's " + std::to_string(e.block_nbytes) +
           " (another model, block size or KV dtype?)";
  }
  if (s.block_tokens != e.block_tokens) {
    return "the prefill worker's blocks hold " + std::to_string(s.block_tokens) +
           " tokens, this worker's " + std::to_string(e.block_tokens);
  }
  if (s.block_checksums.size() != size_t(s.num_blocks) * kKvBlockChecksumBytes) {
    return "the source has " + std::to_string(s.block_checksums.size() / kKvBlockChecksumBytes) +
           " block checksums for " + std::to_string(s.num_blocks) + " blocks";
  }
  return "";
}

// The blocks are the KV of this prompt's first num_blocks blocks, or none of its business.
std::string prompt_refusal(const KvSource& s, const KvSourceExpectation& e) {
  const uint64_t covered = uint64_t(s.num_blocks) * uint64_t(s.block_tokens);
  if (covered > e.prompt.size()) {
    return "the source covers " + std::to_string(covered) + " tokens, more than the prompt's " +
           std::to_string(e.prompt.size());
  }
  if (kv_tokens_digest(e.prompt.first(size_t(covered)), s.block_tokens) != s.tokens_digest) {
    return "the source's KV was computed for another prompt";
  }
  return "";
}

}  // namespace

std::string kv_source_refusal(const KvSource& source, const KvSourceExpectation& expected) {
  if (expected.secret.empty()) {
    return "this decode worker has no KV transfer secret (--kv-transfer-secret-file or "
           "INFERGATE_KV_TRANSFER_SECRET), so it trusts no source";
  }
  if (!kv_source_signature_ok(source, expected.secret)) {
    return "the source's signature does not verify (not from a prefill worker sharing this "
           "worker's KV transfer secret)";
  }
  for (const std::string& why :
       {geometry_refusal(source, expected), kv_source_range_refusal(source)}) {
    if (!why.empty()) return why;
  }
  return prompt_refusal(source, expected);
}

std::string kv_read_refusal(const KvSource& source, int first, int count,
                            std::span<const std::byte> bytes) {
  if (first < 0 || count < 0 || first > source.num_blocks - count ||
      bytes.size() != size_t(count) * source.block_nbytes ||
      source.block_checksums.size() != size_t(source.num_blocks) * kKvBlockChecksumBytes) {
    return "the KV read is not blocks [" + std::to_string(first) + ", " +
           std::to_string(first + count) + ") of the export";
  }
  if (count == 0) return "";
  const std::string sums = kv_block_checksums(bytes, source.block_nbytes);
  if (sums != source.block_checksums.substr(size_t(first) * kKvBlockChecksumBytes, sums.size())) {
    return "the KV read does not match the prefill worker's checksums";
  }
  return "";
}

}  // namespace infergate
