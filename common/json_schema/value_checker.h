// The value checker: walks a JSON value beside the compiled schema's nodes and reports the first
// problem found. It ends on every value: schemas nesting deeper than 256 levels in one value
// (recursion through $ref), a string too long to match against a pattern, or more than
// 10,000,000 steps is reported as a problem.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/json_schema/compiled_schema.h"

namespace infergate::json_schema {

// "" when `value` is valid; otherwise the first problem found, naming the value's path.
// Safe to call on many threads at once: each call keeps its own state.
std::string first_problem(const CompiledJsonSchema& schema, const nlohmann::json& value);

}  // namespace infergate::json_schema
