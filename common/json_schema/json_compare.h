// JSON values compared as JSON Schema compares them: numbers by their value, whatever their
// representation (1 equals 1.0, and 1.0 is an integer), so for minimum, multipleOf and the like;
// json_hash() agrees with that equality, for uniqueItems. (nlohmann's operator== already
// compares numbers by value: const and enum use it directly.)
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

namespace infergate::json_schema {

// Any number with a zero fraction: 1.0 is an integer (draft 6 on).
bool is_integral(const nlohmann::json& value);

// -1, 0 or 1 as number a is less than, equal to or greater than number b; exact for every
// int64, uint64 and double.
int compare_numbers(const nlohmann::json& a, const nlohmann::json& b);

// Integers exactly. Otherwise the quotient must lie within 1e-9 of an integer, or within its own
// rounding error where that is larger (a huge quotient), so 0.3 is a multiple of 0.1 while 7.5
// is not one of 1; a quotient that overflows is no multiple. `divisor` is greater than 0.
bool is_multiple_of(const nlohmann::json& value, const nlohmann::json& divisor);

// Equal values (JSON equality, 1 equals 1.0) hash alike: numbers hash by their double value.
std::size_t json_hash(const nlohmann::json& value);

}  // namespace infergate::json_schema
