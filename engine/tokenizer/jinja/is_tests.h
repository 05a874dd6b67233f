// The tests of `x is name` and of selectattr/rejectattr (runtime.ts TESTS): boolean callable odd
// even false true none string number integer iterable mapping sequence lower upper defined
// undefined equalto eq. As in @huggingface/jinja, `iterable` means a list (not a tuple) or a
// string, and tests take no arguments after `is` (equalto compares with selectattr's value).
#pragma once

#include <string_view>

#include "engine/tokenizer/jinja/value.h"

namespace infergate::jinja {

bool is_known_test(std::string_view name);

// Throws EvalError for an unknown test, or odd/even of a non-integer.
// `argument`: what equalto compares with; null when there is none (then equalto fails).
bool run_test(std::string_view name, const Value& operand, const Value* argument = nullptr);

}  // namespace infergate::jinja
