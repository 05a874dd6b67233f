#include "server/kv_transfer/kv_source.h"

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

std::string from_hex(const nlohmann::json& j, const std::string& path, const char* name) {
  const nlohmann::json& v = field(j, path, name);
  const std::string where = path + "." + name;
  if (!v.is_string()) throw std::invalid_argument(where + " must be a hex string");
  const std::string& hex = v.get_ref<const std::string&>();
  if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 2 * kMaxKvSourceKeyBytes) {
    throw std::invalid_argument(where + " must be an even number of hex digits, at most " +
                                std::to_string(2 * kMaxKvSourceKeyBytes));
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
  return {{"worker", to_hex(s.worker)},     {"rkey", to_hex(s.rkey)},
          {"address", s.address},           {"export_id", s.export_id},
          {"block_nbytes", s.block_nbytes}, {"num_blocks", s.num_blocks}};
}

KvSource kv_source_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) throw std::invalid_argument(path + " must be an object");
  KvSource s;
  s.worker = from_hex(j, path, "worker");
  s.rkey = from_hex(j, path, "rkey");
  s.address = bounded(j, path, "address", 0, UINT64_MAX);
  s.export_id = bounded(j, path, "export_id", 0, UINT64_MAX);
  s.block_nbytes = bounded(j, path, "block_nbytes", 1, kMaxKvBlockBytes);
  s.num_blocks = int(bounded(j, path, "num_blocks", 0, kMaxKvSourceBlocks));
  return s;
}

}  // namespace infergate
