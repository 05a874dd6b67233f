#include "engine/tokenizer/jinja/value_compare.h"

#include <cmath>
#include <string>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/value_text.h"

namespace infergate::jinja {
namespace {

// JS's Type(): what IsLooselyEqual and IsStrictlyEqual dispatch on.
enum class JsType { kUndefined, kBoolean, kNumber, kString, kObject };

JsType js_type(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kUndefined:
    case Value::Kind::kNull:  // a NullValue's raw value is undefined too (runtime.ts)
      return JsType::kUndefined;
    case Value::Kind::kBoolean:
      return JsType::kBoolean;
    case Value::Kind::kInteger:
    case Value::Kind::kFloat:
      return JsType::kNumber;
    case Value::Kind::kString:
      return JsType::kString;
    default:
      return JsType::kObject;
  }
}

bool is_numeric_like(const Value& value) {
  return value.is_number() || value.is(Value::Kind::kBoolean);
}

double numeric_value(const Value& value) {
  return value.is(Value::Kind::kBoolean) ? (value.boolean_value() ? 1 : 0) : value.number_value();
}

bool strict_same_type(const Value& a, const Value& b) {
  switch (js_type(a)) {
    case JsType::kUndefined:
      return true;
    case JsType::kBoolean:
      return a.boolean_value() == b.boolean_value();
    case JsType::kNumber:
      return a.number_value() == b.number_value();
    case JsType::kString:
      return a.str() == b.str();
    case JsType::kObject:
      return a.identity() == b.identity();
  }
  return false;
}

// A number, string or object loosely compared with a number or string (IsLooselyEqual 5-12).
bool loose_primitive(RenderState& state, const Value& a, const Value& b) {
  const JsType ta = js_type(a);
  const JsType tb = js_type(b);
  if (ta == tb) return strict_same_type(a, b);
  if (ta == JsType::kNumber && tb == JsType::kString) {
    return a.number_value() == js_string_to_number(b.str());
  }
  if (ta == JsType::kString && tb == JsType::kNumber) {
    return js_string_to_number(a.str()) == b.number_value();
  }
  // ToPrimitive of a list, object or function is its string.
  if (ta == JsType::kObject)
    return loose_primitive(state, state.make_string(concat_text(state, a)), b);
  if (tb == JsType::kObject)
    return loose_primitive(state, a, state.make_string(concat_text(state, b)));
  return false;
}

}  // namespace

bool strict_equals(const Value& a, const Value& b) {
  return js_type(a) == js_type(b) && strict_same_type(a, b);
}

bool same_value_zero(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number() && std::isnan(a.number_value()) &&
      std::isnan(b.number_value())) {
    return true;
  }
  return strict_equals(a, b);
}

bool loose_equals(RenderState& state, const Value& a, const Value& b) {
  const JsType ta = js_type(a);
  const JsType tb = js_type(b);
  if (ta == JsType::kString && tb == JsType::kString) state.charge_bytes(a.str().size());
  if (ta == tb) return strict_same_type(a, b);
  if (ta == JsType::kUndefined || tb == JsType::kUndefined) return false;
  if (ta == JsType::kBoolean) return loose_equals(state, Value::integer(numeric_value(a)), b);
  if (tb == JsType::kBoolean) return loose_equals(state, a, Value::integer(numeric_value(b)));
  if (ta == JsType::kObject && tb == JsType::kObject) return false;
  return loose_primitive(state, a, b);
}

int compare_for_sort(RenderState& state, const Value& a, const Value& b, bool case_sensitive) {
  state.charge(1);
  if (a.is_null() && b.is_null()) return 0;
  if (a.is_null() || b.is_null() || a.is_undefined() != b.is_undefined()) {
    throw EvalError(std::string("Cannot compare ") + type_name(a) + " with " + type_name(b));
  }
  if (a.is_undefined()) return 0;
  if (is_numeric_like(a) && is_numeric_like(b)) {
    const double x = numeric_value(a);
    const double y = numeric_value(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.kind() != b.kind()) {
    throw EvalError(std::string("Cannot compare different types: ") + type_name(a) + " and " +
                    type_name(b));
  }
  if (!a.is_string()) throw EvalError(std::string("Cannot compare type: ") + type_name(a));
  state.charge_bytes(a.str().size() + b.str().size());
  if (case_sensitive) return js_compare(a.str(), b.str());
  return js_compare(js_to_lower(a.str()), js_to_lower(b.str()));
}

}  // namespace infergate::jinja
