#include "engine/tokenizer/jinja/value_text.h"

#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/json_text.h"

namespace infergate::jinja {
namespace {

// String(f) of a JS function is its source; a built-in's is this.
std::string function_text(const Value& value) {
  return "function " + value.callable().name + "() { [native code] }";
}

}  // namespace

std::string output_text(RenderState& state, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kString:
      return value.str();
    case Value::Kind::kInteger:
      return js_number_to_string(value.number_value());
    case Value::Kind::kFloat:
      return js_float_to_string(value.number_value());
    case Value::Kind::kBoolean:
      return value.boolean_value() ? "true" : "false";
    case Value::Kind::kNull:  // String(undefined): a NullValue holds undefined
    case Value::Kind::kUndefined:
      return "undefined";
    case Value::Kind::kFunction:
      return function_text(value);
    default: {
      JsonOptions options;
      options.undefined_as_null = false;
      return to_json(state, value, options);
    }
  }
}

std::string concat_text(RenderState& state, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kInteger:
    case Value::Kind::kFloat:
      return js_number_to_string(value.number_value());
    case Value::Kind::kArray:
    case Value::Kind::kTuple: {
      std::string out;
      for (size_t i = 0; i < value.items().size(); ++i) {
        if (i > 0) out += ',';
        out += output_text(state, value.items()[i]);
        state.check_string(out.size());
      }
      return out;
    }
    case Value::Kind::kObject:
    case Value::Kind::kKeywordArguments:
    case Value::Kind::kNamespace:
      return "[object Map]";
    default:
      return output_text(state, value);
  }
}

std::string join_text(RenderState& state, const Value& value) {
  if (value.is_null() || value.is_undefined()) return "";
  return concat_text(state, value);
}

}  // namespace infergate::jinja
