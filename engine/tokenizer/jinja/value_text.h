// Values as text, the three ways @huggingface/jinja turns them into strings.
#pragma once

#include <string>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

// RuntimeValue.toString(): what {{ value }} writes (floats as 2.0, lists and objects as JSON
// with undefined shown, tuples and keyword arguments refused).
std::string output_text(RenderState& state, const Value& value);

// value.value.toString(): what `~` and `+` concatenate (floats as 2, lists joined by ",",
// objects as "[object Map]").
std::string concat_text(RenderState& state, const Value& value);

// An element of Array.prototype.join over raw values: none and undefined are empty.
std::string join_text(RenderState& state, const Value& value);

}  // namespace infergate::jinja
