// JavaScript's number semantics: @huggingface/jinja keeps every number as a JS double, so
// integers print as Number.prototype.toString prints them (1e+21, 18446744073709552000) and
// strings convert as parseInt, parseFloat and the == operator convert them.
#pragma once

#include <string>
#include <string_view>

namespace infergate::jinja {

// String(x): the shortest round-trip digits in JS's layout (NaN, Infinity, 1e+21, 1e-7, -0 as 0).
std::string js_number_to_string(double x);
// @huggingface/jinja's FloatValue.toString(): -0.0, integral values as x.toFixed(1) ("2.0"),
// others as String(x).
std::string js_float_to_string(double x);
// parseInt(text, 10) and parseFloat(text): the longest numeric prefix after leading whitespace,
// NaN when there is none.
double js_parse_int(std::string_view text);
double js_parse_float(std::string_view text);
// Number(text), as == converts a string: the whole text trimmed, "" is 0, 0x/0o/0b prefixes.
double js_string_to_number(std::string_view text);

}  // namespace infergate::jinja
