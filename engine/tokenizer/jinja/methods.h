// The built-in members of strings, lists and objects (their `builtins` in runtime.ts): what
// `value.name` finds when the value has no key of that name. Strings: upper lower strip lstrip
// rstrip title capitalize startswith endswith split replace, and length; lists: length;
// objects: get items keys values dictsort. Methods take their arguments as runtime.ts's do, with
// keyword arguments as a last KeywordArguments value.
#pragma once

#include <string_view>
#include <vector>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

// Undefined when `object` has no such member.
Value builtin_member(RenderState& state, const Value& object, std::string_view name);

// Shared with filters and the for loop.
Value object_items(RenderState& state, const Value& object);
Value object_keys(RenderState& state, const Value& object);
Value string_replace(RenderState& state, const Value& self, std::vector<Value>& args);

}  // namespace infergate::jinja
