// Python's slices, as @huggingface/jinja computes them (utils.ts slice()): x[start:stop:step] of
// a list, or of a string's characters (code points).
#pragma once

#include <string>
#include <string_view>

#include "engine/tokenizer/jinja/value.h"

namespace infergate::jinja {

// The indices a slice visits: start, start + step, ... while direction * i < direction * stop.
struct SliceRange {
  double start;
  double stop;
  double step;
  double direction;  // the step's sign; NaN for a NaN step, which selects nothing
};

// `start`, `stop` and `step` are integers or undefined (the defaults).
SliceRange slice_range(double length, const Value& start, const Value& stop, const Value& step);

// The slice of a string's characters.
std::string slice_text(std::string_view text, const SliceRange& range);

}  // namespace infergate::jinja
