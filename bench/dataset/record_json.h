// One record of a line-per-record dataset or trace file parsed as JSON, strictly and in our words:
// nesting is bounded while parsing (nlohmann::json's copy and destruction recurse per level, so
// a 100,000-deep line must never be built), a key given twice in one object is refused (which
// value would count is a guess), and a syntax error says where in the line and what was
// expected, without the library's "[json.exception.parse_error.101]" prefix.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

// Parses `text`, line `line` of `file`. Throws DatasetError ("FILE:LINE: ...") for a syntax
// error, nesting deeper than kMaxJsonDepth, a duplicate key or a number out of range of a double.
nlohmann::json parse_record_json(const std::string& text, const std::string& file, int line);

}  // namespace infergate
