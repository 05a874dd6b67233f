#include "common/kv_transfer/kv_transfer_secret.h"

#include <openssl/rand.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace infergate {

namespace {

std::string checked(std::string secret, const std::string& where) {
  if (secret.ends_with('\n')) secret.pop_back();
  if (secret.size() < kMinKvTransferSecretBytes || secret.size() > kMaxKvTransferSecretBytes) {
    throw std::invalid_argument(where + " must hold " + std::to_string(kMinKvTransferSecretBytes) +
                                " to " + std::to_string(kMaxKvTransferSecretBytes) +
                                " bytes, got " + std::to_string(secret.size()));
  }
  return secret;
}

}  // namespace

std::string load_kv_transfer_secret(const std::string& file) {
  if (!file.empty()) {
    const std::string where = "--kv-transfer-secret-file " + file;
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::invalid_argument(where + " cannot be read");
    // One byte past the limit is enough to tell the file is too long.
    std::string secret(kMaxKvTransferSecretBytes + 2, '\0');
    in.read(secret.data(), std::streamsize(secret.size()));
    secret.resize(size_t(in.gcount()));
    return checked(std::move(secret), where);
  }
  const char* value = std::getenv(kKvTransferSecretVariable);
  if (value == nullptr) return "";
  return checked(value, kKvTransferSecretVariable);
}

std::string random_kv_transfer_secret() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("OpenSSL: RAND_bytes failed to make a KV transfer secret");
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char b : bytes) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  return hex;
}

}  // namespace infergate
