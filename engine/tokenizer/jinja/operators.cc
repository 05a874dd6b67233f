#include "engine/tokenizer/jinja/operators.h"

#include <cmath>
#include <string>
#include <vector>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/value_compare.h"
#include "engine/tokenizer/jinja/value_text.h"

namespace infergate::jinja {
namespace {

using ast::BinaryOp;
using Kind = Value::Kind;

bool is_numeric_like(const Value& value) { return value.is_number() || value.is(Kind::kBoolean); }

double numeric_value(const Value& value) {
  return value.is(Kind::kBoolean) ? (value.boolean_value() ? 1 : 0) : value.number_value();
}

// JS's a ** b where C's pow differs: 1 ** NaN and (+-1) ** +-Infinity are NaN.
double js_power(double a, double b) {
  if (std::isnan(b)) return std::nan("");
  if (std::fabs(a) == 1 && std::isinf(b)) return std::nan("");
  return std::pow(a, b);
}

Value power(const Value& left, const Value& right) {
  const double a = numeric_value(left);
  const double b = numeric_value(right);
  if (a == 0 && b < 0) throw EvalError("0.0 cannot be raised to a negative power");
  const double result = js_power(a, b);
  if (!std::isfinite(result)) throw EvalError("Exponentiation result is not a finite real number");
  const bool is_float = left.is(Kind::kFloat) || right.is(Kind::kFloat) || b < 0;
  return is_float ? Value::floating(result) : Value::integer(result);
}

// Both numbers: arithmetic and comparisons; nothing (undefined) for other operators.
Value arithmetic(BinaryOp op, const Value& left, const Value& right, bool& done) {
  const double a = left.number_value();
  const double b = right.number_value();
  const bool is_float = left.is(Kind::kFloat) || right.is(Kind::kFloat);
  const auto number = [&](double x) { return is_float ? Value::floating(x) : Value::integer(x); };
  done = true;
  switch (op) {
    case BinaryOp::kAdd:
      return number(a + b);
    case BinaryOp::kSubtract:
      return number(a - b);
    case BinaryOp::kMultiply:
      return number(a * b);
    case BinaryOp::kDivide:
      return Value::floating(a / b);
    case BinaryOp::kFloorDivide:
      return number(std::floor(a / b));
    case BinaryOp::kModulo:
      return number(std::fmod(a, b));
    case BinaryOp::kLess:
      return Value::boolean(a < b);
    case BinaryOp::kGreater:
      return Value::boolean(a > b);
    case BinaryOp::kGreaterEqual:
      return Value::boolean(a >= b);
    case BinaryOp::kLessEqual:
      return Value::boolean(a <= b);
    default:
      done = false;
      return Value();
  }
}

bool contains(RenderState& state, const std::vector<Value>& items, const Value& needle) {
  for (const Value& item : items) {
    state.charge(1);
    if (strict_equals(item, needle)) return true;
  }
  return false;
}

Value concatenation(RenderState& state, const Value& left, const Value& right) {
  std::string text = concat_text(state, left);
  const std::string tail = concat_text(state, right);
  state.check_string(text.size() + tail.size());
  text += tail;
  return state.make_string(std::move(text));
}

// What remains once numbers and lists have had their turn: strings and objects.
Value string_operation(RenderState& state, BinaryOp op, std::string_view op_text, const Value& left,
                       const Value& right) {
  if (op == BinaryOp::kAdd && (left.is_string() || right.is_string())) {
    return concatenation(state, left, right);
  }
  const bool membership = op == BinaryOp::kIn || op == BinaryOp::kNotIn;
  if (membership && left.is_string() && right.is_string()) {
    state.charge_bytes(right.str().size());
    const bool found = right.str().find(left.str()) != std::string::npos;
    return Value::boolean(found == (op == BinaryOp::kIn));
  }
  if (membership && left.is_string() && right.is_object()) {
    const bool found = right.mapping().find(left.str()) != nullptr;
    return Value::boolean(found == (op == BinaryOp::kIn));
  }
  throw EvalError("Unknown operator \"" + std::string(op_text) + "\" between " + type_name(left) +
                  " and " + type_name(right));
}

}  // namespace

Value binary_operation(RenderState& state, BinaryOp op, std::string_view op_text, const Value& left,
                       const Value& right) {
  if (op == BinaryOp::kEqual) return Value::boolean(loose_equals(state, left, right));
  if (op == BinaryOp::kNotEqual) return Value::boolean(!loose_equals(state, left, right));
  const bool membership = op == BinaryOp::kIn || op == BinaryOp::kNotIn;
  if (left.is_undefined() || right.is_undefined()) {
    // `anything in undefined` is false.
    if (right.is_undefined() && membership) return Value::boolean(op == BinaryOp::kNotIn);
    throw EvalError("Cannot perform operation " + std::string(op_text) + " on undefined values");
  }
  if (left.is_null() || right.is_null()) throw EvalError("Cannot perform operation on null values");
  if (op == BinaryOp::kConcat) return concatenation(state, left, right);
  if (op == BinaryOp::kPower && is_numeric_like(left) && is_numeric_like(right)) {
    return power(left, right);
  }
  if (left.is_number() && right.is_number()) {
    bool done = false;
    Value result = arithmetic(op, left, right, done);
    if (done) return result;
  } else if (left.is_array() && right.is_array()) {
    if (op == BinaryOp::kAdd) {
      state.check_collection(left.items().size() + right.items().size());
      std::vector<Value> items = left.items();
      items.insert(items.end(), right.items().begin(), right.items().end());
      return state.make_array(std::move(items));
    }
  } else if (right.is_array() && membership) {
    return Value::boolean(contains(state, right.items(), left) == (op == BinaryOp::kIn));
  }
  return string_operation(state, op, op_text, left, right);
}

Value unary_operation(ast::UnaryOp op, const Value& argument) {
  if (op == ast::UnaryOp::kNot) return Value::boolean(!truthy(argument));
  const char* text = op == ast::UnaryOp::kMinus ? "-" : "+";
  if (!is_numeric_like(argument)) {
    throw EvalError(std::string("Unknown operator \"") + text + "\" for " + type_name(argument));
  }
  const double value = (op == ast::UnaryOp::kMinus ? -1 : 1) * numeric_value(argument);
  return argument.is(Kind::kFloat) ? Value::floating(value) : Value::integer(value);
}

}  // namespace infergate::jinja
