// Strict reading of one JSON object of a workload file: each getter checks the type of one key
// and names its JSON path on error; finish() rejects every key that no getter asked for, so a
// typo is an error rather than a silently ignored setting.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

// A value as it appears in the file, shortened for messages (json_excerpt(): bounded in length
// and never recursive, whatever the value holds).
std::string json_text(const nlohmann::json& value);

class JsonObjectReader {
 public:
  // Throws WorkloadError unless `value` is an object. `value` must outlive the reader.
  JsonObjectReader(const nlohmann::json& value, std::string path, std::string file);

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  // The path of `key` for messages (a very long key is cut: path_segment()).
  std::string path_of(const std::string& key) const;
  bool has(const std::string& key) const { return value_.contains(key); }

  // Getters make `key` allowed here; an absent key yields `fallback`.
  const nlohmann::json* find(const std::string& key);
  // A reader of the object at `key` (an empty object when absent).
  JsonObjectReader child(const std::string& key);
  std::string get_string(const std::string& key, const std::string& fallback);
  std::string get_choice(const std::string& key, const std::string& fallback,
                         const std::vector<std::string>& allowed);
  bool get_bool(const std::string& key, bool fallback);
  int get_int(const std::string& key, int fallback);
  int64_t get_int64(const std::string& key, int64_t fallback);
  uint64_t get_uint64(const std::string& key, uint64_t fallback);
  double get_double(const std::string& key, double fallback);
  std::optional<double> get_optional_double(const std::string& key);
  // An array of integers (each checked, its own JSON path in errors).
  std::vector<int> get_int_list(const std::string& key, const std::vector<int>& fallback);

  // Throws "out of range (rule)" for `key`, or "missing (rule)" when it is absent, unless `ok`.
  void check(bool ok, const std::string& key, const std::string& rule) const;

  // Allows `keys` without reading them yet, so finish() can run before cross-field checks and
  // a misspelled key is reported as such rather than as a missing one.
  void allow(const std::vector<std::string>& keys);

  // Keys valid in this object only under another setting (e.g. `rate` when the mode is closed)
  // and the setting in force, so finish() can say "not used with ..." rather than "unknown".
  void set_context(std::string context, std::vector<std::string> other_keys);

  // Throws for the first key (in sorted order) that no getter asked for.
  void finish() const;

 private:
  const nlohmann::json& get_typed(const std::string& key, bool ok_type,
                                  const std::string& expected) const;

  const nlohmann::json& value_;
  std::string path_, file_;
  std::vector<std::string> allowed_;  // in the order asked, for messages
  std::string context_;
  std::vector<std::string> other_keys_;
};

// "a, b, c"
std::string join_names(const std::vector<std::string>& names);

}  // namespace infergate
