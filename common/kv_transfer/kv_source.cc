#include "common/kv_transfer/kv_source.h"

#include <stdexcept>

namespace infergate {

namespace {

std::string to_hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

const nlohmann::json& field(const nlohmann::json& j, const std::string& path, const char* name) {
  auto it = j.find(name);
  if (it == j.end()) throw std::invalid_argument(path + "." + name + " is missing");
  return *it;
}

// `name`'s bytes: 1 to max_bytes of them, or exactly `exact` when it is not 0.
std::string from_hex(const nlohmann::json& j, const std::string& path, const char* name,
                     size_t max_bytes, size_t exact = 0) {
  const nlohmann::json& v = field(j, path, name);
  const std::string where = path + "." + name;
  if (!v.is_string()) throw std::invalid_argument(where + " must be a hex string");
  const std::string& hex = v.get_ref<const std::string&>();
  if (exact > 0 && hex.size() != 2 * exact) {
    throw std::invalid_argument(where + " must be " + std::to_string(2 * exact) + " hex digits");
  }
  if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 2 * max_bytes) {
    throw std::invalid_argument(where + " must be an even number of hex digits, at most " +
                                std::to_string(2 * max_bytes));
  }
  std::string bytes(hex.size() / 2, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      throw std::invalid_argument(where + " has a character that is not 0-9a-f");
    bytes[i] = char(hi * 16 + lo);
  }
  return bytes;
}

uint64_t bounded(const nlohmann::json& j, const std::string& path, const char* name, uint64_t min,
                 uint64_t max) {
  const nlohmann::json& v = field(j, path, name);
  if (!v.is_number_unsigned() || v.get<uint64_t>() < min || v.get<uint64_t>() > max) {
    throw std::invalid_argument(path + "." + name + " must be an integer in [" +
                                std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return v.get<uint64_t>();
}

}  // namespace

nlohmann::json kv_source_to_json(const KvSource& s) {
  return {{"worker", to_hex(s.worker)},
          {"rkey", to_hex(s.rkey)},
          {"address", s.address},
          {"export_id", s.export_id},
          {"block_nbytes", s.block_nbytes},
          {"num_blocks", uint64_t(s.num_blocks)},  // unsigned, as kv_source_from_json wants
          {"arena_address", s.arena_address},
          {"arena_bytes", s.arena_bytes},
          {"block_tokens", uint64_t(s.block_tokens)},
          {"tokens_digest", to_hex(s.tokens_digest)},
          {"block_checksums", to_hex(s.block_checksums)},
          {"signature", to_hex(s.signature)}};
}

KvSource kv_source_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) throw std::invalid_argument(path + " must be an object");
  KvSource s;
  s.worker = from_hex(j, path, "worker", kMaxKvSourceKeyBytes);
  s.rkey = from_hex(j, path, "rkey", kMaxKvSourceKeyBytes);
  s.address = bounded(j, path, "address", 0, UINT64_MAX);
  s.export_id = bounded(j, path, "export_id", 0, UINT64_MAX);
  s.block_nbytes = bounded(j, path, "block_nbytes", 1, kMaxKvBlockBytes);
  s.num_blocks = int(bounded(j, path, "num_blocks", 0, kMaxKvSourceBlocks));
  s.arena_address = bounded(j, path, "arena_address", 0, UINT64_MAX);
  s.arena_bytes = bounded(j, path, "arena_bytes", 0, UINT64_MAX);
  s.block_tokens = int(bounded(j, path, "block_tokens", 1, kMaxKvBlockTokens));
  s.tokens_digest = from_hex(j, path, "tokens_digest", kKvDigestBytes, kKvDigestBytes);
  // num_blocks is bounded above, so this length is too (8 MiB at most).
  const size_t checksums = size_t(s.num_blocks) * kKvBlockChecksumBytes;
  if (checksums == 0) {
    const nlohmann::json& v = field(j, path, "block_checksums");
    if (!v.is_string() || !v.get_ref<const std::string&>().empty()) {
      throw std::invalid_argument(path + ".block_checksums must be \"\" for 0 blocks");
    }
  } else {
    s.block_checksums = from_hex(j, path, "block_checksums", checksums, checksums);
  }
  s.signature = from_hex(j, path, "signature", kKvDigestBytes, kKvDigestBytes);
  return s;
}

}  // namespace infergate
