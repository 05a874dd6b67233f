// The secret a router shares with its prefill and decode workers (docs/disaggregation.md,
// "Trust"): prefill workers sign the KV sources they hand out with it, decode workers read only
// sources whose signature verifies. Never a command-line value (every local user can read
// argv): a file (--kv-transfer-secret-file) or the environment (INFERGATE_KV_TRANSFER_SECRET),
// which a router starting its workers sets to a fresh random secret when it has none.
#pragma once

#include <cstddef>
#include <string>

namespace infergate {

inline constexpr const char* kKvTransferSecretVariable = "INFERGATE_KV_TRANSFER_SECRET";
inline constexpr size_t kMinKvTransferSecretBytes = 16;
inline constexpr size_t kMaxKvTransferSecretBytes = 4096;

// The secret in `file` (when not empty; one trailing newline dropped) or else in the
// environment; "" when neither gives one. Throws std::invalid_argument naming the flag or the
// variable when it cannot be read or is shorter than kMinKvTransferSecretBytes or longer than
// kMaxKvTransferSecretBytes.
std::string load_kv_transfer_secret(const std::string& file);

// 32 random bytes (OpenSSL's RAND_bytes) as 64 hex digits.
std::string random_kv_transfer_secret();

}  // namespace infergate
