#include "engine/tokenizer/jinja/filters.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_set>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/is_tests.h"
#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/json_text.h"
#include "engine/tokenizer/jinja/methods.h"
#include "engine/tokenizer/jinja/value_compare.h"
#include "engine/tokenizer/jinja/value_text.h"

namespace infergate::jinja {
namespace {

using Kind = Value::Kind;
using Args = std::vector<Value>;

[[noreturn]] void cannot_apply(std::string_view name, const Value& operand) {
  throw EvalError("Cannot apply filter \"" + std::string(name) +
                  "\" to type: " + type_name(operand));
}

[[noreturn]] void unknown(const char* type, std::string_view name) {
  throw EvalError(std::string("Unknown ") + type + " filter: " + std::string(name));
}

// args[i], else the keyword argument `key`, else null.
const Value* option(const FilterCall& call, size_t i, std::string_view key) {
  if (i < call.args.size()) return &call.args[i];
  return call.kwargs.find(key);
}

const Value& with_default(const Value* given, const Value& fallback) {
  return given ? *given : fallback;
}

// The JS truthiness of a raw value, as indent() reads `first` and `blank`.
bool raw_truthy(const Value& value) {
  return value.is_attribute_container() || value.is_array() || truthy(value);
}

Value call_method(RenderState& state, const Value& method, Args args) {
  return method.callable().builtin(state, method.callable().self, args);
}

// ---- helpers shared by both forms

// utils.ts getAttributeValue: "a.b.0" through objects and list indices.
Value attribute_value(const Value& item, std::string_view path) {
  Value value = item;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string_view part =
        path.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (value.is_attribute_container()) {
      const Value* found = value.mapping().find(part);
      value = found ? *found : Value();
    } else if (value.is_array()) {
      const double index = js_parse_int(part);
      if (std::isnan(index) || index < 0 || index >= static_cast<double>(value.items().size())) {
        return Value();
      }
      value = Value(value.items()[static_cast<size_t>(index)]);
    } else {
      return Value();
    }
    if (dot == std::string_view::npos) return value;
    start = dot + 1;
  }
}

Value sorted(RenderState& state, const Value& list, bool reverse, bool case_sensitive,
             const Value& attribute) {
  Args items = list.items();
  const auto key = [&](const Value& item) {
    if (attribute.is_null()) return item;
    const std::string path =
        attribute.is_string() ? attribute.str() : js_number_to_string(attribute.number_value());
    return attribute_value(item, path);
  };
  std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
    const int order = compare_for_sort(state, key(a), key(b), case_sensitive);
    return reverse ? order > 0 : order < 0;
  });
  return state.make_array(std::move(items));
}

// A SameValueZero key: equal keys for values JS's Set treats as one.
std::string identity_key(const Value& value) {
  switch (value.kind()) {
    case Kind::kUndefined:
    case Kind::kNull:  // a NullValue holds undefined: JS's Set sees one value
      return "u";
    case Kind::kBoolean:
      return value.boolean_value() ? "t" : "f";
    case Kind::kInteger:
    case Kind::kFloat: {
      double x = value.number_value();
      if (std::isnan(x)) return "nan";
      if (x == 0) x = 0;
      char bytes[sizeof x];
      std::memcpy(bytes, &x, sizeof x);
      return "n" + std::string(bytes, sizeof x);
    }
    case Kind::kString:
      return "s" + value.str();
    default: {
      const auto address = reinterpret_cast<uintptr_t>(value.identity());
      return "o" + std::to_string(address);
    }
  }
}

Value unique(RenderState& state, const Value& list) {
  std::unordered_set<std::string> seen;
  Args out;
  for (const Value& item : list.items()) {
    std::string key = identity_key(item);
    state.charge_bytes(key.size());
    if (seen.insert(std::move(key)).second) out.push_back(item);
  }
  return state.make_array(std::move(out));
}

Value join(RenderState& state, const Value& operand, std::string_view separator) {
  std::string out;
  const auto add = [&](size_t i, std::string_view piece) {
    if (i > 0) out += separator;
    out += piece;
    state.check_string(out.size());
  };
  if (operand.is_string()) {
    const std::string_view text = operand.str();
    size_t i = 0;
    for (size_t pos = 0; pos < text.size(); ++i) {
      const size_t size = decode_utf8(text, pos).size;
      add(i, text.substr(pos, size));
      pos += size;
    }
  } else {
    for (size_t i = 0; i < operand.items().size(); ++i)
      add(i, join_text(state, operand.items()[i]));
  }
  return state.make_string(std::move(out));
}

Value indent(RenderState& state, const std::string& text, const Value& width, bool first,
             bool blank) {
  if (!width.is(Kind::kInteger)) throw EvalError("width must be a number");
  const double count = width.number_value();
  if (count < 0 || !std::isfinite(count)) {
    throw EvalError("Invalid count value: " + js_number_to_string(count));
  }
  state.check_string(static_cast<size_t>(count));
  const std::string pad(static_cast<size_t>(count), ' ');
  std::string out;
  size_t line = 0;
  for (size_t start = 0;; ++line) {
    const size_t end = text.find('\n', start);
    const std::string_view piece(text.data() + start,
                                 (end == std::string::npos ? text.size() : end) - start);
    if (line > 0) out += '\n';
    if ((first || line > 0) && (blank || !piece.empty())) out += pad;
    out += piece;
    state.check_string(out.size());
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return state.make_string(std::move(out));
}

Value items_of(RenderState& state, const Value& object) { return object_items(state, object); }

// ---- `x | name`

Value named_list_filter(RenderState& state, const Value& operand, std::string_view name) {
  const Args& items = operand.items();
  if (name == "list") return operand;
  if (name == "first") return items.empty() ? Value() : items.front();
  if (name == "last") return items.empty() ? Value() : items.back();
  if (name == "length") return Value::integer(static_cast<double>(items.size()));
  if (name == "reverse") return state.make_array(Args(items.rbegin(), items.rend()));
  if (name == "sort") return sorted(state, operand, false, false, Value::null());
  if (name == "join") return join(state, operand, "");
  if (name == "string") {
    JsonOptions options;
    options.undefined_as_null = false;
    return state.make_string(to_json(state, operand, options));
  }
  if (name == "unique") return unique(state, operand);
  unknown("ArrayValue", name);
}

Value named_string_filter(RenderState& state, const Value& operand, std::string_view name) {
  const std::string& s = operand.str();
  if (name == "length" || name == "upper" || name == "lower" || name == "title" ||
      name == "capitalize") {
    const Value member = builtin_member(state, operand, name);
    return member.is_function() ? call_method(state, member, {}) : member;
  }
  if (name == "trim") return state.make_string(std::string(js_trim(s)));
  if (name == "indent") return indent(state, s, Value::integer(4), false, false);
  if (name == "join" || name == "string") return operand;
  if (name == "int") {
    const double value = js_parse_int(s);
    return Value::integer(std::isnan(value) ? 0 : value);
  }
  if (name == "float") {
    const double value = js_parse_float(s);
    return Value::floating(std::isnan(value) ? 0 : value);
  }
  unknown("StringValue", name);
}

Value named_number_filter(RenderState& state, const Value& operand, std::string_view name) {
  const double x = operand.number_value();
  if (name == "abs")
    return operand.is(Kind::kInteger) ? Value::integer(std::fabs(x))
                                      : Value::floating(std::fabs(x));
  if (name == "int") return Value::integer(std::floor(x));
  if (name == "float") return Value::floating(x);
  if (name == "string") return state.make_string(output_text(state, operand));
  unknown("NumericValue", name);
}

Value named_object_filter(RenderState& state, const Value& operand, std::string_view name) {
  if (name == "items") return items_of(state, operand);
  if (name == "length") return Value::integer(static_cast<double>(operand.mapping().size()));
  const Value member = builtin_member(state, operand, name);
  if (member.is_function()) return call_method(state, member, {});
  unknown("ObjectValue", name);
}

Value named_boolean_filter(RenderState& state, const Value& operand, std::string_view name) {
  const bool b = operand.boolean_value();
  if (name == "bool") return operand;
  if (name == "int") return Value::integer(b ? 1 : 0);
  if (name == "float") return Value::floating(b ? 1 : 0);
  if (name == "string") return state.make_string(b ? "true" : "false");
  unknown("BooleanValue", name);
}

Value named_filter(RenderState& state, const Value& operand, std::string_view name) {
  if (name == "safe") return operand;
  if (name == "tojson") return state.make_string(to_json(state, operand));
  if (operand.is_array()) return named_list_filter(state, operand, name);
  if (operand.is_string()) return named_string_filter(state, operand, name);
  if (operand.is_number()) return named_number_filter(state, operand, name);
  if (operand.is_object()) return named_object_filter(state, operand, name);
  if (operand.is(Kind::kBoolean)) return named_boolean_filter(state, operand, name);
  cannot_apply(name, operand);
}

// ---- `x | name(...)`

Value tojson(RenderState& state, const Value& operand, const FilterCall& call) {
  JsonOptions options;
  const Value* indent_value = call.kwargs.find("indent");
  if (indent_value && !indent_value->is(Kind::kInteger) && !indent_value->is_null()) {
    throw EvalError("If set, indent must be a number");
  }
  if (indent_value && indent_value->is(Kind::kInteger))
    options.indent = indent_value->number_value();
  const Value* ensure_ascii = call.kwargs.find("ensure_ascii");
  if (ensure_ascii && !ensure_ascii->is(Kind::kBoolean))
    throw EvalError("If set, ensure_ascii must be a boolean");
  options.ensure_ascii = ensure_ascii && ensure_ascii->boolean_value();
  const Value* sort_keys = call.kwargs.find("sort_keys");
  if (sort_keys && !sort_keys->is(Kind::kBoolean))
    throw EvalError("If set, sort_keys must be a boolean");
  options.sort_keys = sort_keys && sort_keys->boolean_value();
  const Value* separators = call.kwargs.find("separators");
  if (separators && separators->is_array()) {
    const Args& pair = separators->items();
    if (pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
      throw EvalError("separators must be a tuple of two strings");
    }
    options.separators = std::make_pair(pair[0].str(), pair[1].str());
  } else if (separators && !separators->is_null()) {
    throw EvalError("If set, separators must be a tuple of two strings");
  }
  return state.make_string(to_json(state, operand, options));
}

Value called_join(RenderState& state, const Value& operand, const FilterCall& call) {
  if (!operand.is_string() && !operand.is_array()) cannot_apply(call.name, operand);
  const Value empty = state.make_string("");
  const Value& separator = with_default(option(call, 0, "separator"), empty);
  if (!separator.is_string()) throw EvalError("separator must be a string");
  return join(state, operand, separator.str());
}

Value called_number(RenderState& state, const Value& operand, const FilterCall& call) {
  const bool integer = call.name == "int";
  const Value zero = integer ? Value::integer(0) : Value::floating(0);
  const Value& fallback = with_default(option(call, 0, "default"), zero);
  if (operand.is_string()) {
    const double value = integer ? js_parse_int(operand.str()) : js_parse_float(operand.str());
    if (std::isnan(value)) return fallback;
    return integer ? Value::integer(value) : Value::floating(value);
  }
  if (operand.is_number()) return operand;
  if (operand.is(Kind::kBoolean)) {
    const double value = operand.boolean_value() ? 1 : 0;
    return integer ? Value::integer(value) : Value::floating(value);
  }
  (void)state;
  cannot_apply(call.name, operand);
}

Value called_default(RenderState& state, const Value& operand, const FilterCall& call) {
  const Value empty = state.make_string("");
  const Value& fallback = call.args.empty() ? empty : call.args[0];
  const Value no = Value::boolean(false);
  const Value& boolean = with_default(option(call, 1, "boolean"), no);
  if (!boolean.is(Kind::kBoolean)) throw EvalError("`default` filter flag must be a boolean");
  if (operand.is_undefined() || (boolean.boolean_value() && !truthy(operand))) return fallback;
  return operand;
}

Value called_sort(RenderState& state, const Value& operand, const FilterCall& call) {
  const Value no = Value::boolean(false);
  const Value& reverse = with_default(option(call, 0, "reverse"), no);
  if (!reverse.is(Kind::kBoolean)) throw EvalError("reverse must be a boolean");
  const Value& case_sensitive = with_default(option(call, 1, "case_sensitive"), no);
  if (!case_sensitive.is(Kind::kBoolean)) throw EvalError("case_sensitive must be a boolean");
  const Value none = Value::null();
  const Value& attribute = with_default(option(call, 2, "attribute"), none);
  if (!attribute.is_string() && !attribute.is(Kind::kInteger) && !attribute.is_null()) {
    throw EvalError("attribute must be a string, integer, or null");
  }
  return sorted(state, operand, reverse.boolean_value(), case_sensitive.boolean_value(), attribute);
}

// selectattr(attr, test?, value?) / rejectattr: every argument a string literal.
Value select_attribute(RenderState& state, const Value& operand, const FilterCall& call) {
  const bool select = call.name == "selectattr";
  for (const Value& item : operand.items()) {
    if (!item.is_attribute_container()) {
      throw EvalError("`" + std::string(call.name) + "` can only be applied to array of objects");
    }
  }
  if (!call.literal_args)
    throw EvalError("arguments of `" + std::string(call.name) + "` must be strings");
  if (call.args.empty())
    throw EvalError("`" + std::string(call.name) + "` needs an attribute name");
  const std::string& attribute = call.args[0].str();
  const Value* test = call.args.size() > 1 ? &call.args[1] : nullptr;
  if (test && !is_known_test(test->str())) throw EvalError("Unknown test: " + test->str());
  const Value* value = call.args.size() > 2 ? &call.args[2] : nullptr;
  Args out;
  for (const Value& item : operand.items()) {
    state.charge(1);
    const Value* found = item.mapping().find(attribute);
    bool result = false;
    if (found) result = test ? run_test(test->str(), *found, value) : truthy(*found);
    if (result == select) out.push_back(item);
  }
  return state.make_array(std::move(out));
}

Value map_attribute(RenderState& state, const Value& operand, const FilterCall& call) {
  const Value* attribute = call.kwargs.find("attribute");
  if (!attribute)
    throw EvalError("`map` expressions without `attribute` set are not currently supported.");
  if (!attribute->is_string()) throw EvalError("attribute must be a string");
  const Value* fallback = call.kwargs.find("default");
  Args out;
  for (const Value& item : operand.items()) {
    if (!item.is_attribute_container()) throw EvalError("items in map must be an object");
    Value value = attribute_value(item, attribute->str());
    out.push_back(value.is_undefined() && fallback ? *fallback : value);
  }
  return state.make_array(std::move(out));
}

Value called_string_filter(RenderState& state, const Value& operand, const FilterCall& call) {
  if (call.name == "indent") {
    const Value four = Value::integer(4);
    const Value no = Value::boolean(false);
    return indent(state, operand.str(), with_default(option(call, 0, "width"), four),
                  raw_truthy(with_default(option(call, 1, "first"), no)),
                  raw_truthy(with_default(option(call, 2, "blank"), no)));
  }
  if (call.name == "replace") {
    Args args = call.args;
    args.push_back(state.make_object(call.kwargs, Kind::kKeywordArguments));
    return string_replace(state, operand, args);
  }
  unknown("StringValue", call.name);
}

Value called_filter(RenderState& state, const Value& operand, const FilterCall& call) {
  const std::string_view name = call.name;
  if (name == "tojson") return tojson(state, operand, call);
  if (name == "join") return called_join(state, operand, call);
  if (name == "int" || name == "float") return called_number(state, operand, call);
  if (name == "default") return called_default(state, operand, call);
  if (operand.is_array()) {
    if (name == "sort") return called_sort(state, operand, call);
    if (name == "selectattr" || name == "rejectattr") return select_attribute(state, operand, call);
    if (name == "map") return map_attribute(state, operand, call);
    unknown("ArrayValue", name);
  }
  if (operand.is_string()) return called_string_filter(state, operand, call);
  if (operand.is_object()) {
    const Value member = builtin_member(state, operand, name);
    if (!member.is_function()) unknown("ObjectValue", name);
    Args args = call.args;
    if (!call.kwargs.empty())
      args.push_back(state.make_object(call.kwargs, Kind::kKeywordArguments));
    return call_method(state, member, std::move(args));
  }
  cannot_apply(name, operand);
}

}  // namespace

Value apply_filter(RenderState& state, const Value& operand, const FilterCall& call) {
  return call.called ? called_filter(state, operand, call)
                     : named_filter(state, operand, call.name);
}

}  // namespace infergate::jinja
