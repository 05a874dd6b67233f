// Reads one section of a results file into its struct: every accessor checks the member's type
// and throws ResultsError naming the file and the JSON path ("r.json: $.points[0]
// .repetitions[1].server.metrics.ttft_ms: expected an object, got string"), so a section's
// reader is a list of its fields and no library exception escapes without a place.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/results/results_error.h"

namespace infergate {

class SectionReader {
 public:
  SectionReader(const nlohmann::json& j, std::string source, std::string path);

  const nlohmann::json& json() const { return j_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  bool is_null() const { return j_.is_null(); }
  // Present and not null.
  bool has(const char* key) const;
  SectionReader at(const char* key) const;  // any type; null when absent

  // Required members: missing, null or another type is an error.
  double number(const char* key) const;  // finite
  int64_t integer(const char* key) const;
  std::string text(const char* key) const;
  bool flag(const char* key) const;
  SectionReader object(const char* key) const;
  std::vector<SectionReader> array(const char* key) const;

  // Optional members: absent or null gives nullopt (or the fallback); another type is an error.
  std::optional<double> optional_number(const char* key) const;
  std::optional<int64_t> optional_integer(const char* key) const;
  std::optional<std::string> optional_text(const char* key) const;
  double number_or(const char* key, double fallback) const;
  int64_t integer_or(const char* key, int64_t fallback) const;
  std::string text_or(const char* key, const std::string& fallback) const;
  bool flag_or(const char* key, bool fallback) const;

  // This value itself.
  double as_number() const;
  int64_t as_integer() const;
  std::string as_text() const;
  std::vector<SectionReader> elements() const;                         // an array's
  std::vector<std::pair<std::string, SectionReader>> members() const;  // an object's, in order
  void expect_object() const;

 private:
  const nlohmann::json& j_;
  std::string source_, path_;
};

}  // namespace infergate
