// Whether a macro's (or call block's) body reads Jinja's implicit `kwargs` or `varargs` before
// declaring a variable of that name, walking the tree in Jinja's visit order as
// @huggingface/jinja's findAccessedSpecialMacroArguments does: a macro that reads neither
// refuses extra arguments.
#pragma once

#include <vector>

#include "engine/tokenizer/jinja/ast.h"

namespace infergate::jinja {

ast::SpecialArguments find_special_arguments(const std::vector<ast::NodePtr>& params,
                                             const ast::Block& body);

// A parameter's name and default (null without one).
struct Parameter {
  const std::string* name;
  const ast::Node* default_value;
};
Parameter parameter_of(const ast::Node& param);

}  // namespace infergate::jinja
