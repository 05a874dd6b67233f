// The machine-readable verdicts of a comparison (schema "infergate.verdicts/v1",
// docs/reports.md): what CI scripts and dashboards read instead of parsing the other reports.
#pragma once

#include <nlohmann/json.hpp>

#include "gates/verdict/comparison.h"

namespace infergate {

inline constexpr const char* kVerdictsSchema = "infergate.verdicts/v1";

// The whole comparison as JSON: overall label, exit code and headline, the files compared, the
// fingerprint differences, warnings, and one object per rule evaluation. Non-finite numbers
// (a change against a zero baseline) are written as null.
nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace infergate
