// What binds an export to its content (docs/disaggregation.md, "Trust"): the digest of the token
// ids its blocks hold, so a decode worker adopts blocks only as the prefix of the very prompt
// they were computed for, and a checksum of each block's bytes, so a wrong or partial read is
// refused instead of being cached. SHA-256 from OpenSSL's libcrypto (docs/dependencies.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace infergate {

// SHA-256 (kKvDigestBytes) of `tokens` (whole blocks of block_tokens) and block_tokens itself.
std::string kv_tokens_digest(std::span<const int32_t> tokens, int block_tokens);

// Each block's SHA-256, truncated to kKvBlockChecksumBytes, end to end. `bytes` holds whole
// blocks of block_nbytes.
std::string kv_block_checksums(std::span<const std::byte> bytes, size_t block_nbytes);

}  // namespace infergate
