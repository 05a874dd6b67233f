#include "engine/tokenizer/jinja/methods.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/value_compare.h"

namespace infergate::jinja {
namespace {

using Args = std::vector<Value>;

const Value* arg(const Args& args, size_t i) { return i < args.size() ? &args[i] : nullptr; }

Value text(RenderState& state, std::string value) { return state.make_string(std::move(value)); }

Value upper(RenderState& state, const Value& self, Args&) {
  state.charge_bytes(self.str().size());
  return text(state, js_to_upper(self.str()));
}
Value lower(RenderState& state, const Value& self, Args&) {
  state.charge_bytes(self.str().size());
  return text(state, js_to_lower(self.str()));
}
// Arguments are ignored, as runtime.ts ignores them: strip('\n') strips all whitespace.
Value strip(RenderState& state, const Value& self, Args&) {
  return text(state, std::string(js_trim(self.str())));
}
Value lstrip(RenderState& state, const Value& self, Args&) {
  return text(state, std::string(js_trim_start(self.str())));
}
Value rstrip(RenderState& state, const Value& self, Args&) {
  return text(state, std::string(js_trim_end(self.str())));
}
Value title(RenderState& state, const Value& self, Args&) {
  return text(state, js_title(self.str()));
}
Value capitalize(RenderState& state, const Value& self, Args&) {
  return text(state, js_capitalize(self.str()));
}

// startswith / endswith: a string, or a tuple (list) of strings tried in order.
template <bool kStart>
Value affix_test(RenderState& state, const Value& self, Args& args) {
  const char* name = kStart ? "startswith" : "endswith";
  if (args.empty()) throw EvalError(std::string(name) + "() requires at least one argument");
  const std::string_view s = self.str();
  const auto matches = [&](std::string_view affix) {
    if (affix.size() > s.size()) return false;
    return kStart ? s.substr(0, affix.size()) == affix : s.substr(s.size() - affix.size()) == affix;
  };
  const Value& pattern = args[0];
  if (pattern.is_string()) return Value::boolean(matches(pattern.str()));
  if (!pattern.is_array()) {
    throw EvalError(std::string(name) + "() argument must be a string or tuple of strings");
  }
  for (const Value& item : pattern.items()) {
    state.charge(1);
    if (!item.is_string()) throw EvalError(std::string(name) + "() tuple elements must be strings");
    if (matches(item.str())) return Value::boolean(true);
  }
  return Value::boolean(false);
}

void push_part(RenderState& state, Args& parts, std::string_view part) {
  state.check_collection(parts.size() + 1);
  parts.push_back(state.make_string(std::string(part)));
}

// str.split(None, maxsplit): runs of whitespace separate, none at the ends; once maxsplit parts
// are made, the rest of the text (from the next word on) is the last part.
Args split_whitespace(RenderState& state, std::string_view s, double maxsplit) {
  s = js_trim_start(s);
  Args parts;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = pos;
    while (end < s.size() && js_space_size(s, end) == 0) end += decode_utf8(s, end).size;
    if (maxsplit != -1 && static_cast<double>(parts.size()) >= maxsplit) {
      push_part(state, parts, s.substr(pos));
      return parts;
    }
    push_part(state, parts, s.substr(pos, end - pos));
    pos = end;
    while (size_t size = js_space_size(s, pos)) pos += size;
  }
  return parts;
}

// str.split(sep, maxsplit): then, past maxsplit parts, the rest joined back as the last one.
Args split_separator(RenderState& state, std::string_view s, std::string_view sep,
                     double maxsplit) {
  if (sep.empty()) throw EvalError("empty separator");
  std::vector<std::string_view> pieces;
  for (size_t pos = 0;;) {
    state.check_collection(pieces.size() + 1);
    const size_t found = s.find(sep, pos);
    pieces.push_back(s.substr(pos, found == std::string_view::npos ? found : found - pos));
    if (found == std::string_view::npos) break;
    pos = found + sep.size();
  }
  Args parts;
  size_t keep = pieces.size();
  if (maxsplit != -1 && static_cast<double>(pieces.size()) > maxsplit) {
    // splice(maxsplit): a negative start counts from the end.
    const double start =
        maxsplit < 0 ? std::max(0.0, static_cast<double>(pieces.size()) + maxsplit) : maxsplit;
    keep = static_cast<size_t>(start);
  }
  for (size_t i = 0; i < keep; ++i) push_part(state, parts, pieces[i]);
  if (keep < pieces.size()) {
    const std::string_view rest = s.substr(static_cast<size_t>(pieces[keep].data() - s.data()));
    push_part(state, parts, rest);
  }
  return parts;
}

Value split(RenderState& state, const Value& self, Args& args) {
  const Value sep = arg(args, 0) ? args[0] : Value::null();
  if (!sep.is_string() && !sep.is_null()) throw EvalError("sep argument must be a string or null");
  const Value maxsplit = arg(args, 1) ? args[1] : Value::integer(-1);
  if (!maxsplit.is(Value::Kind::kInteger)) throw EvalError("maxsplit argument must be a number");
  state.charge_bytes(self.str().size());
  Args parts = sep.is_null()
                   ? split_whitespace(state, self.str(), maxsplit.number_value())
                   : split_separator(state, self.str(), sep.str(), maxsplit.number_value());
  return state.make_array(std::move(parts));
}

Value object_get(RenderState&, const Value& self, Args& args) {
  const Value key = arg(args, 0) ? args[0] : Value();
  if (!key.is_string()) {
    throw EvalError(std::string("Object key must be a string: got ") + type_name(key));
  }
  if (const Value* found = self.mapping().find(key.str())) return *found;
  return arg(args, 1) ? args[1] : Value::null();
}

Value items_method(RenderState& state, const Value& self, Args&) {
  return object_items(state, self);
}
Value keys_method(RenderState& state, const Value& self, Args&) { return object_keys(state, self); }
Value values_method(RenderState& state, const Value& self, Args&) {
  Args values;
  for (const auto& entry : self.mapping().entries) values.push_back(entry.second);
  return state.make_array(std::move(values));
}

const Value& boolean_option(const Value* given, const Value& fallback, const char* name) {
  const Value& value = given ? *given : fallback;
  if (!value.is(Value::Kind::kBoolean)) throw EvalError(std::string(name) + " must be a boolean");
  return value;
}

// dictsort(case_sensitive=false, by='key', reverse=false): the items, sorted.
Value dictsort(RenderState& state, const Value& self, Args& args) {
  Args positional;
  const Value* kwargs = nullptr;
  for (const Value& a : args) {
    if (a.is(Value::Kind::kKeywordArguments)) {
      kwargs = &a;
    } else {
      positional.push_back(a);
    }
  }
  const auto option = [&](size_t i, std::string_view key) -> const Value* {
    if (i < positional.size()) return &positional[i];
    return kwargs ? kwargs->mapping().find(key) : nullptr;
  };
  const Value no = Value::boolean(false);
  const bool case_sensitive =
      boolean_option(option(0, "case_sensitive"), no, "case_sensitive").boolean_value();
  const Value key_name = state.make_string("key");
  const Value& by = option(1, "by") ? *option(1, "by") : key_name;
  if (!by.is_string()) throw EvalError("by must be a string");
  if (by.str() != "key" && by.str() != "value")
    throw EvalError("by must be either 'key' or 'value'");
  const bool reverse = boolean_option(option(2, "reverse"), no, "reverse").boolean_value();
  const size_t index = by.str() == "key" ? 0 : 1;
  Args items = object_items(state, self).items();
  std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
    const int order = compare_for_sort(state, a.items()[index], b.items()[index], case_sensitive);
    return reverse ? order > 0 : order < 0;
  });
  return state.make_array(std::move(items));
}

Value string_member(RenderState& state, const Value& self, std::string_view name) {
  static const std::pair<std::string_view, Builtin> kMethods[] = {{"upper", upper},
                                                                  {"lower", lower},
                                                                  {"strip", strip},
                                                                  {"title", title},
                                                                  {"capitalize", capitalize},
                                                                  {"rstrip", rstrip},
                                                                  {"lstrip", lstrip},
                                                                  {"startswith", affix_test<true>},
                                                                  {"endswith", affix_test<false>},
                                                                  {"split", split},
                                                                  {"replace", string_replace}};
  if (name == "length") return Value::integer(static_cast<double>(utf16_length(self.str())));
  for (const auto& [method, builtin] : kMethods) {
    if (method == name) return state.make_builtin(std::string(name), builtin, self);
  }
  return Value();
}

Value object_member(RenderState& state, const Value& self, std::string_view name) {
  static const std::pair<std::string_view, Builtin> kMethods[] = {{"get", object_get},
                                                                  {"items", items_method},
                                                                  {"keys", keys_method},
                                                                  {"values", values_method},
                                                                  {"dictsort", dictsort}};
  for (const auto& [method, builtin] : kMethods) {
    if (method == name) return state.make_builtin(std::string(name), builtin, self);
  }
  return Value();
}

// utils.ts replace(): the first `count` occurrences (all when none or negative); an empty `old`
// matches before every character and at the end.
std::string replace_text(RenderState& state, std::string_view s, std::string_view old,
                         std::string_view replacement, double count) {
  double remaining =
      (std::isnan(count) || count < 0) ? std::numeric_limits<double>::infinity() : count;
  if (std::isnan(count)) remaining = 0;
  std::string out;
  const auto append = [&](std::string_view piece) {
    state.check_string(out.size() + piece.size());
    out += piece;
  };
  size_t pos = 0;
  while (remaining > 0 && pos <= s.size()) {
    const size_t found = old.empty() ? pos : s.find(old, pos);
    if (found == std::string_view::npos) break;
    append(s.substr(pos, found - pos));
    append(replacement);
    --remaining;
    if (old.empty()) {
      if (found == s.size()) return out;
      const size_t size = decode_utf8(s, found).size;
      append(s.substr(found, size));
      pos = found + size;
    } else {
      pos = found + old.size();
    }
  }
  if (pos <= s.size()) append(s.substr(pos));
  return out;
}

}  // namespace

Value string_replace(RenderState& state, const Value& self, Args& args) {
  if (args.size() < 2) throw EvalError("replace() requires at least two arguments");
  if (!args[0].is_string() || !args[1].is_string()) {
    throw EvalError("replace() arguments must be strings");
  }
  Value count = Value::null();
  if (args.size() > 2) {
    if (args[2].is(Value::Kind::kKeywordArguments)) {
      const Value* given = args[2].mapping().find("count");
      count = given ? *given : Value::null();
    } else {
      count = args[2];
    }
  }
  if (!count.is(Value::Kind::kInteger) && !count.is_null()) {
    throw EvalError("replace() count argument must be a number or null");
  }
  if (count.is(Value::Kind::kInteger) && count.number_value() == 0) return self;
  state.charge_bytes(self.str().size());
  const double limit = count.is_null() ? -1 : count.number_value();
  return state.make_string(replace_text(state, self.str(), args[0].str(), args[1].str(), limit));
}

Value object_items(RenderState& state, const Value& object) {
  Args items;
  for (const auto& [key, value] : object.mapping().entries) {
    items.push_back(state.make_array({state.make_string(key), value}));
  }
  return state.make_array(std::move(items));
}

Value object_keys(RenderState& state, const Value& object) {
  Args keys;
  for (const auto& entry : object.mapping().entries) keys.push_back(state.make_string(entry.first));
  return state.make_array(std::move(keys));
}

Value builtin_member(RenderState& state, const Value& object, std::string_view name) {
  if (object.is_string()) return string_member(state, object, name);
  if (object.is_array()) {
    if (name == "length") return Value::integer(static_cast<double>(object.items().size()));
    return Value();
  }
  if (object.is_object()) return object_member(state, object, name);
  return Value();
}

}  // namespace infergate::jinja
