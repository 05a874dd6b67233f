// How @huggingface/jinja compares values: == and != compare the underlying JS values loosely
// (1 == "1", [1] == "1"), `in` and equalto strictly (===), unique by SameValueZero; lists,
// objects and functions are equal only to themselves. A none's underlying value is undefined
// there (new NullValue() holds nothing), so none and undefined are equal even strictly. sort and
// dictsort order values as compareRuntimeValues does: numbers and booleans together, strings with
// their own kind only.
#pragma once

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

bool loose_equals(RenderState& state, const Value& a, const Value& b);
bool strict_equals(const Value& a, const Value& b);
bool same_value_zero(const Value& a, const Value& b);

// Negative, zero or positive; throws EvalError for values it cannot order.
int compare_for_sort(RenderState& state, const Value& a, const Value& b, bool case_sensitive);

}  // namespace infergate::jinja
