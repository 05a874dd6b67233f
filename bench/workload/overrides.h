// `--set path=value`: change any field of a workload from the command line. Overrides edit the
// JSON document before validation, so an override is checked exactly like the file itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace infergate {

struct Override {
  std::vector<std::string> path;  // "load.rate" -> {"load", "rate"}
  nlohmann::json value;           // null: remove the key (back to its default)
};

// Splits "path=value" at the first '='. The value is JSON when it parses as JSON (numbers,
// true/false, null, arrays, objects, "quoted strings"), a plain string otherwise. Throws
// WorkloadError naming the assignment for a missing '=' or an empty path or path segment.
Override parse_override(const std::string& assignment);

// Sets the value at the dotted path, creating missing intermediate objects; a segment of digits
// indexes an existing array element (`sweep.values.0=4`). Throws WorkloadError naming the
// assignment when the path runs through a value that is neither an object nor such an array.
void apply_override(nlohmann::json& doc, const std::string& assignment);

// `assignment` as messages quote it: cut after 80 characters, so a huge value is not echoed.
std::string override_text(const std::string& assignment);

}  // namespace infergate
