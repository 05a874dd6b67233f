// The operators on values (runtime.ts evaluateBinaryExpression / evaluateUnaryExpression),
// except `and`/`or`, which the interpreter short-circuits. JS's rules where @huggingface/jinja
// follows them: `+` joins when either side is a string, `%` keeps the dividend's sign, `/`
// always gives a float; `<` and friends compare numbers only; `in` looks into lists (===),
// strings and object keys, and is false for an undefined right side.
#pragma once

#include <string_view>

#include "engine/tokenizer/jinja/ast.h"
#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

Value binary_operation(RenderState& state, ast::BinaryOp op, std::string_view op_text,
                       const Value& left, const Value& right);
Value unary_operation(ast::UnaryOp op, const Value& argument);

}  // namespace infergate::jinja
