#include "common/kv_transfer/kv_source_signature.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdint>
#include <stdexcept>

namespace infergate {

namespace {

// Versioned, so a change of the layout cannot verify under the old one.
constexpr std::string_view kDomain = "infergate kv_transfer.source v1";

void append_u64(uint64_t v, std::string& out) {
  for (int i = 0; i < 8; ++i) out += char((v >> (8 * i)) & 0xff);
}

// Lengths first: no two sources share a message.
void append_bytes(const std::string& bytes, std::string& out) {
  append_u64(bytes.size(), out);
  out += bytes;
}

std::string signed_message(const KvSource& s) {
  std::string m(kDomain);
  append_bytes(s.worker, m);
  append_bytes(s.rkey, m);
  for (const uint64_t v : {s.address, s.export_id, s.block_nbytes, uint64_t(s.num_blocks),
                           s.arena_address, s.arena_bytes, uint64_t(s.block_tokens)}) {
    append_u64(v, m);
  }
  append_bytes(s.tokens_digest, m);
  append_bytes(s.block_checksums, m);
  return m;
}

}  // namespace

std::string kv_source_signature(const KvSource& source, std::string_view secret) {
  if (secret.empty()) throw std::invalid_argument("a KV source is signed with a secret");
  const std::string message = signed_message(source);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret.data(), int(secret.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac,
           &length) == nullptr ||
      length != kKvDigestBytes) {
    throw std::runtime_error("OpenSSL: HMAC(SHA-256) failed");
  }
  return std::string(reinterpret_cast<const char*>(mac), length);
}

bool kv_source_signature_ok(const KvSource& source, std::string_view secret) {
  if (secret.empty() || source.signature.size() != kKvDigestBytes) return false;
  const std::string expected = kv_source_signature(source, secret);
  return CRYPTO_memcmp(expected.data(), source.signature.data(), kKvDigestBytes) == 0;
}

}  // namespace infergate
