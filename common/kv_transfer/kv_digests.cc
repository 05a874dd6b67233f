#include "common/kv_transfer/kv_digests.h"

#include <openssl/evp.h>

#include <stdexcept>

#include "common/kv_transfer/kv_source.h"

namespace infergate {

namespace {

// SHA-256 of `n` bytes at `data`, appended to `out` (its first `keep` bytes).
void append_sha256(const void* data, size_t n, size_t keep, std::string& out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data, n, digest, &length, EVP_sha256(), nullptr) != 1 || length < keep) {
    throw std::runtime_error("OpenSSL: EVP_Digest(SHA-256) failed");
  }
  out.append(reinterpret_cast<const char*>(digest), keep);
}

void append_le32(uint32_t v, std::string& out) {
  for (int i = 0; i < 4; ++i) out += char((v >> (8 * i)) & 0xff);
}

}  // namespace

std::string kv_tokens_digest(std::span<const int32_t> tokens, int block_tokens) {
  // Little-endian, whatever the host: a prefill and a decode worker may differ.
  std::string message;
  message.reserve(4 * (tokens.size() + 2));
  append_le32(uint32_t(block_tokens), message);
  append_le32(uint32_t(tokens.size()), message);
  for (const int32_t t : tokens) append_le32(uint32_t(t), message);
  std::string digest;
  append_sha256(message.data(), message.size(), kKvDigestBytes, digest);
  return digest;
}

std::string kv_block_checksums(std::span<const std::byte> bytes, size_t block_nbytes) {
  if (block_nbytes == 0 || bytes.size() % block_nbytes != 0) {
    throw std::invalid_argument("KV checksums need whole blocks of " +
                                std::to_string(block_nbytes) + " bytes, got " +
                                std::to_string(bytes.size()));
  }
  std::string sums;
  sums.reserve(bytes.size() / block_nbytes * kKvBlockChecksumBytes);
  for (size_t at = 0; at < bytes.size(); at += block_nbytes) {
    append_sha256(bytes.data() + at, block_nbytes, kKvBlockChecksumBytes, sums);
  }
  return sums;
}

}  // namespace infergate
