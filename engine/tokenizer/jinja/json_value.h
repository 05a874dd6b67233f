// The render's context, from JSON into values, as transformers.js hands a JS object to
// @huggingface/jinja (convertToRuntimeValues): numbers are JS doubles, integral ones integers
// (so 1.0 is 1); object keys keep their order, except that JS lists array-index keys ("0",
// "7") first, in ascending order. Sizes and nesting are checked against Limits.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

Value value_from_json(RenderState& state, const nlohmann::ordered_json& json);

}  // namespace infergate::jinja
