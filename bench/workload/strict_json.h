// Parsing a workload's JSON text (a file, or a --set value) strictly: nesting is bounded while
// parsing, because nlohmann::json's copy, comparison and dump() recurse once per level and
// 100,000 nested arrays would overflow the stack later; a key given twice in one object is an
// error rather than the last one silently winning; a number too large for a double names the
// JSON path it sits at. Syntax errors stay nlohmann::json::parse_error (with line and column).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "common/io/json_text.h"

namespace infergate {

// The most levels of arrays and objects in a workload document, --set values included: the
// results model's limit for every untrusted JSON text (the schema itself nests 5 deep).
inline constexpr int kMaxWorkloadDepth = kMaxJsonDepth;

// A structural problem at a JSON path ("$.load.rate"); what() is the problem alone.
class StrictJsonError : public std::runtime_error {
 public:
  StrictJsonError(std::string path, std::string value, std::string allowed,
                  const std::string& problem)
      : std::runtime_error(problem),
        path_(std::move(path)),
        value_(std::move(value)),
        allowed_(std::move(allowed)) {}
  const std::string& path() const { return path_; }
  const std::string& value() const { return value_; }
  const std::string& allowed() const { return allowed_; }

 private:
  std::string path_, value_, allowed_;
};

// Parses `text` (// and /* */ comments allowed) whose root sits at JSON path `root` and may nest
// `max_depth` levels. Throws StrictJsonError for nesting deeper than that, a duplicate key or a
// number out of range of a double; nlohmann::json::parse_error for a syntax error.
nlohmann::json parse_strict_json(const std::string& text, const std::string& root = "$",
                                 int max_depth = kMaxWorkloadDepth);

// `key` as a JSON path segment for messages: a key longer than 40 characters is cut, so a
// megabyte key does not become a megabyte message.
std::string path_segment(const std::string& key);

}  // namespace infergate
