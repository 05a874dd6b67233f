// Tokens to a syntax tree, by @huggingface/jinja's grammar (parser.ts): its statements (if, for,
// set, macro, call, filter, break, continue), its operator precedence and its quirks (commas in
// list literals are optional, `a if b` without else selects). Nesting deeper than max_depth is
// a syntax error, so neither parsing nor evaluating the tree can exhaust the stack.
#pragma once

#include <vector>

#include "engine/tokenizer/jinja/ast.h"
#include "engine/tokenizer/jinja/lexer.h"

namespace infergate::jinja {

// Throws SyntaxError (lexer.h); `end_offset` places errors at the end of the template.
ast::Block parse(const std::vector<Token>& tokens, uint32_t end_offset, int max_depth);

}  // namespace infergate::jinja
