// The simulator's data files (hardware, model shapes, calibrations) read strictly: an error
// names the file, the JSON path, the value and the rule, and a key nobody reads is refused, so
// a misspelled "memory_bandwith_gb_s" is not silently a default.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

// A simulator file that cannot be used; what() is "<file>: <path>: <problem>".
class SimFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class SimObjectReader {
 public:
  // Throws SimFileError unless `value` is an object. `value` must outlive the reader.
  SimObjectReader(const nlohmann::json& value, std::string file, std::string path = "");

  bool has(const std::string& key) const { return value_.contains(key); }
  // Required: a finite number > 0 (the unit is in the key's name: memory_gib, latency_us).
  double positive(const std::string& key);
  double positive_or(const std::string& key, double fallback);
  // A finite number >= 0.
  double non_negative_or(const std::string& key, double fallback);
  int integer_or(const std::string& key, int fallback, int lo, int hi);
  std::string string(const std::string& key);  // required, non-empty
  std::string string_or(const std::string& key, const std::string& fallback);
  std::string choice(const std::string& key, const std::vector<std::string>& allowed);
  std::vector<std::string> strings_or(const std::string& key);
  // The object at `key` (required).
  SimObjectReader child(const std::string& key);
  // Any JSON value at `key` (required); the caller checks it with fail().
  const nlohmann::json& value(const std::string& key);
  // Every key of this object (for maps such as peak_tflops); each becomes read.
  std::vector<std::string> keys();

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  // Throws for the first key (sorted) no getter asked for, listing those that were.
  void finish() const;
  const std::string& file() const { return file_; }
  std::string path_of(const std::string& key) const;

 private:
  const nlohmann::json* find(const std::string& key);

  const nlohmann::json& value_;
  std::string file_, path_;
  std::vector<std::string> read_;
};

// `path` read whole (bounded) and parsed; SimFileError names the file.
nlohmann::json read_sim_json_file(const std::string& path);

}  // namespace infergate
