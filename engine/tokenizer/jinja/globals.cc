#include "engine/tokenizer/jinja/globals.h"

#include <cmath>
#include <ctime>
#include <string>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/value_text.h"

namespace infergate::jinja {
namespace {

using Args = std::vector<Value>;

// The message of `new Error(value)`: undefined (and none) give none; JS converts the rest.
Value raise_exception(RenderState& state, const Value&, Args& args) {
  const Value message = args.empty() ? Value() : args[0];
  const bool nothing = message.is_undefined() || message.is_null();  // both hold undefined
  throw RaisedException(nothing ? "" : concat_text(state, message));
}

// A JS function's argument as a number: how range()'s comparisons and steps see it.
double as_number(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kInteger:
    case Value::Kind::kFloat:
      return value.number_value();
    case Value::Kind::kBoolean:
      return value.boolean_value() ? 1 : 0;
    case Value::Kind::kString:
      return js_string_to_number(value.str());
    default:
      return std::nan("");
  }
}

// utils.ts range(start, stop?, step = 1), Python's; its length is checked before it is built.
Value range(RenderState& state, const Value&, Args& args) {
  double start = args.empty() ? std::nan("") : as_number(args[0]);
  double stop = 0;
  if (args.size() < 2 || args[1].is_undefined() || args[1].is_null()) {
    stop = start;
    start = 0;
  } else {
    stop = as_number(args[1]);
  }
  const double step =
      args.size() < 3 || args[2].is_undefined() || args[2].is_null() ? 1 : as_number(args[2]);
  if (step == 0) throw EvalError("range() step must not be zero");
  const double count = std::ceil((stop - start) / step);
  if (count > 0) state.check_collection(static_cast<size_t>(std::min(count, 1e18)));
  Args items;
  for (double i = start; step > 0 ? i < stop : i > stop; i += step) {
    items.push_back(Value::number(i));
    state.check_collection(items.size());
  }
  return state.make_array(std::move(items));
}

// utils.ts strftime_now: %Y %m %d %b %B %H %M %% of the local time, month names in English.
Value strftime_now(RenderState& state, const Value&, Args& args) {
  if (args.empty() || !args[0].is_string()) throw EvalError("strftime_now() needs a format string");
  static const char* const kMonths[] = {"January",   "February", "March",    "April",
                                        "May",       "June",     "July",     "August",
                                        "September", "October",  "November", "December"};
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  const auto pad2 = [](int n) { return (n < 10 ? "0" : "") + std::to_string(n); };
  const std::string& format = args[0].str();
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    const char next = i + 1 < format.size() ? format[i + 1] : 0;
    if (format[i] != '%' || std::string_view("YmdbBHM%").find(next) == std::string_view::npos ||
        next == 0) {
      out += format[i];
      continue;
    }
    ++i;
    switch (next) {
      case 'Y':
        out += std::to_string(local.tm_year + 1900);
        break;
      case 'm':
        out += pad2(local.tm_mon + 1);
        break;
      case 'd':
        out += pad2(local.tm_mday);
        break;
      case 'b':
        out += std::string(kMonths[local.tm_mon]).substr(0, 3);
        break;
      case 'B':
        out += kMonths[local.tm_mon];
        break;
      case 'H':
        out += pad2(local.tm_hour);
        break;
      case 'M':
        out += pad2(local.tm_min);
        break;
      default:
        out += '%';
    }
  }
  return state.make_string(std::move(out));
}

// A [key, value] pair for namespace(): a two-element list, or a two-character string.
std::pair<std::string, Value> namespace_entry(RenderState& state, const Value& pair) {
  Args values;
  if (pair.is_array()) values = pair.items();
  const std::string_view text =
      pair.is_string() ? std::string_view(pair.str()) : std::string_view();
  for (size_t pos = 0; pos < text.size() && values.size() <= 2;) {  // a third makes it wrong
    const size_t size = decode_utf8(text, pos).size;
    values.push_back(state.make_string(std::string(text.substr(pos, size))));
    pos += size;
  }
  if (values.size() != 2) {
    throw EvalError("namespace expected an object or an iterable of [key, value] pairs");
  }
  if (!values[0].is_string()) throw EvalError("namespace keys must be strings");
  return {values[0].str(), values[1]};
}

// namespace(mapping_or_pairs?, **kwargs): a copy, so assignments leave the argument alone.
Value make_namespace(RenderState& state, const Value&, Args& args) {
  Args positional = args;
  const Value* kwargs = nullptr;
  if (!positional.empty() && positional.back().is(Value::Kind::kKeywordArguments)) {
    kwargs = &args.back();
    positional.pop_back();
  }
  if (positional.size() > 1) {
    throw EvalError("namespace expected at most 1 argument, got " +
                    std::to_string(positional.size()));
  }
  Mapping entries;
  if (positional.size() == 1) {
    const Value& source = positional[0];
    if (source.is_object()) {
      for (const auto& [key, value] : source.mapping().entries) entries.set(key, value);
    } else if (source.is_array()) {
      for (const Value& pair : source.items()) {
        auto [key, value] = namespace_entry(state, pair);
        entries.set(std::move(key), std::move(value));
      }
    } else {
      throw EvalError(std::string("'") + type_name(source) + "' object is not iterable");
    }
  }
  if (kwargs) {
    for (const auto& [key, value] : kwargs->mapping().entries) entries.set(key, value);
  }
  return state.make_namespace(std::move(entries));
}

}  // namespace

Value namespace_function(RenderState& state) {
  return state.make_builtin("namespace", make_namespace);
}

void declare_globals(RenderState& state, Scope& scope) {
  scope.set("false", Value::boolean(false));
  scope.set("true", Value::boolean(true));
  scope.set("none", Value::null());
  scope.set("raise_exception", state.make_builtin("raise_exception", raise_exception));
  scope.set("range", state.make_builtin("range", range));
  scope.set("strftime_now", state.make_builtin("strftime_now", strftime_now));
  scope.set("True", Value::boolean(true));
  scope.set("False", Value::boolean(false));
  scope.set("None", Value::null());
}

}  // namespace infergate::jinja
