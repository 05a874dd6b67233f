#include "engine/tokenizer/jinja/is_tests.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/value_compare.h"

namespace infergate::jinja {
namespace {

using Kind = Value::Kind;

bool parity(const Value& operand, const char* name, bool odd) {
  if (!operand.is(Kind::kInteger)) {
    throw EvalError(std::string("cannot ") + name + " on " + type_name(operand));
  }
  const double remainder = std::fmod(operand.number_value(), 2);
  return odd ? remainder != 0 : remainder == 0;
}

bool cased(const Value& operand, bool lower) {
  if (!operand.is_string()) return false;
  const std::string& s = operand.str();
  return s == (lower ? js_to_lower(s) : js_to_upper(s));
}

constexpr std::string_view kTests[] = {"boolean",  "callable",  "odd",      "even",   "false",
                                       "true",     "none",      "string",   "number", "integer",
                                       "iterable", "mapping",   "sequence", "lower",  "upper",
                                       "defined",  "undefined", "equalto",  "eq"};

}  // namespace

bool is_known_test(std::string_view name) {
  return std::find(std::begin(kTests), std::end(kTests), name) != std::end(kTests);
}

bool run_test(std::string_view name, const Value& operand, const Value* argument) {
  if (name == "boolean") return operand.is(Kind::kBoolean);
  if (name == "callable") return operand.is_function();
  if (name == "odd") return parity(operand, "odd", true);
  if (name == "even") return parity(operand, "even", false);
  if (name == "false") return operand.is(Kind::kBoolean) && !operand.boolean_value();
  if (name == "true") return operand.is(Kind::kBoolean) && operand.boolean_value();
  if (name == "none") return operand.is_null();
  if (name == "string") return operand.is_string();
  if (name == "number") return operand.is_number();
  if (name == "integer") return operand.is(Kind::kInteger);
  if (name == "iterable") return operand.is(Kind::kArray) || operand.is_string();
  if (name == "mapping") return operand.is_object();
  if (name == "sequence") return operand.is_array() || operand.is_object() || operand.is_string();
  if (name == "lower") return cased(operand, true);
  if (name == "upper") return cased(operand, false);
  if (name == "defined") return !operand.is_undefined();
  if (name == "undefined") return operand.is_undefined();
  if (name == "equalto" || name == "eq") {
    if (!argument)
      throw EvalError("the " + std::string(name) + " test needs a value to compare with");
    return strict_equals(operand, *argument);
  }
  throw EvalError("Unknown test: " + std::string(name));
}

}  // namespace infergate::jinja
