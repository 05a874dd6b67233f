// Refusing a JSON object that names one key twice. nlohmann::json keeps the last of duplicates,
// so `"max_tokens": 1, "max_tokens": 1000` would silently mean 1000; workloads refuse that, and
// so do requests and model headers through this check, run as a parser callback while parsing.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

// A key seen twice in one object. what() quotes a bounded excerpt of the key; key() is whole.
class JsonDuplicateKeyError : public std::runtime_error {
 public:
  explicit JsonDuplicateKeyError(const std::string& key);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// A parser callback for nlohmann::json::parse that throws JsonDuplicateKeyError when one object
// holds a key twice. Each call returns a fresh callback (it keeps the keys of open objects).
nlohmann::json::parser_callback_t unique_keys_callback();

}  // namespace infergate
