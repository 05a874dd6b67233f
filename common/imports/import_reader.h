// A checked view of one JSON value of an imported file: every read names the file and the JSON
// path of what it reads, so a missing key, a wrong type or a negative latency is reported as
// "v.json: $.ttfts[3]: -0.12 is negative" (an ImportError), never as a library exception.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace infergate {

class ImportReader {
 public:
  // `file` as the user named it; `path` the JSON path of `value` ("$", "$.metrics").
  ImportReader(const nlohmann::json& value, std::string file, std::string path)
      : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

  const nlohmann::json& json() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

  // Present and not null.
  bool has(const char* key) const;
  // The member `key`, which must be present (null allowed); this value must be an object.
  ImportReader at(const char* key) const;
  // The member `key` when present and not null.
  std::optional<ImportReader> find(const char* key) const;
  ImportReader element(size_t i) const;

  // This value as an object or array (refused otherwise); size() of an array.
  const ImportReader& expect_object() const;
  const ImportReader& expect_array() const;
  size_t size() const { return value_->size(); }

  // This value as a finite number >= 0 (times, rates, token counts as the tool wrote them).
  double number() const;
  // This value as a whole number >= 0 (7 and 7.0 both: AIPerf writes counts as floats).
  int64_t count() const;
  std::string string() const;

  // The member `key` read as above; required unless optional_.
  double number(const char* key) const { return at(key).number(); }
  int64_t count(const char* key) const { return at(key).count(); }
  std::string string(const char* key) const { return at(key).string(); }
  std::optional<double> optional_number(const char* key) const;
  std::optional<int64_t> optional_count(const char* key) const;
  std::optional<std::string> optional_string(const char* key) const;

  // Throws ImportError "<file>: <path>: <what>" (or "<file>: <path>.<key>: <what>").
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail(const char* key, const std::string& what) const;

 private:
  const nlohmann::json* value_;
  std::string file_;
  std::string path_;
};

// "7", "0.125", "-0.12": a number as a message shows it.
std::string import_number_text(double v);

}  // namespace infergate
