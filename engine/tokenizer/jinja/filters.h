// The filters of @huggingface/jinja (runtime.ts applyFilter), by operand type and by form:
// `x | name` and `x | name(args)` are different filters there, and so here.
//   any:     safe, tojson(indent, ensure_ascii, sort_keys, separators), default(value, boolean)
//   lists:   list first last length reverse sort unique join string, sort(reverse,
//            case_sensitive, attribute), selectattr/rejectattr(attr, test, value),
//            map(attribute=, default=), join(separator)
//   strings: length upper lower title capitalize trim indent join string int float,
//            indent(width, first, blank), replace(old, new, count), int(default), float(default)
//   numbers: abs int float string;  booleans: bool int float string
//   objects: items length, and their methods (get keys values dictsort)
// Anything else raises, as there: no `d`, `count`, `select`, `batch` or map without attribute.
#pragma once

#include <string_view>
#include <vector>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

struct FilterCall {
  std::string_view name;
  bool called = false;  // name(...), not name
  std::vector<Value> args;
  Mapping kwargs;
  bool literal_args = true;  // every argument was a string literal (selectattr's requirement)
};

Value apply_filter(RenderState& state, const Value& operand, const FilterCall& call);

}  // namespace infergate::jinja
