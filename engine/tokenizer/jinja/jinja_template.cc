#include "engine/tokenizer/jinja/jinja_template.h"

#include <limits>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/globals.h"
#include "engine/tokenizer/jinja/interpreter.h"
#include "engine/tokenizer/jinja/json_value.h"
#include "engine/tokenizer/jinja/lexer.h"
#include "engine/tokenizer/jinja/line_index.h"
#include "engine/tokenizer/jinja/parser.h"
#include "engine/tokenizer/jinja/preprocess.h"

namespace infergate::jinja {

struct Template::Parsed {
  Parsed(std::string_view source, std::string template_name)
      : name(std::move(template_name)), lines(source) {}
  std::string name;
  LineIndex lines;
  ast::Block program;
};

Template::Template(std::string_view source, std::string name, const Limits& limits) {
  auto parsed = std::make_unique<Parsed>(source, std::move(name));
  if (source.size() >= std::numeric_limits<uint32_t>::max()) {
    throw TemplateError(parsed->name, {}, "the template is larger than 4 GiB");
  }
  try {
    const std::vector<Token> tokens = tokenize(preprocess(source));
    parsed->program = parse(tokens, static_cast<uint32_t>(source.size()), limits.max_depth);
  } catch (const SyntaxError& error) {
    throw TemplateError(parsed->name, parsed->lines.at(error.offset), error.problem);
  }
  parsed_ = std::move(parsed);
}

Template::~Template() = default;
Template::Template(Template&&) noexcept = default;
Template& Template::operator=(Template&&) noexcept = default;

const std::string& Template::name() const { return parsed_->name; }

std::string Template::render(const nlohmann::ordered_json& context, const Limits& limits) const {
  if (!context.is_null() && !context.is_object()) {
    throw TemplateError(parsed_->name, {}, "the context must be a JSON object");
  }
  RenderState state(limits);
  const ScopePtr globals = std::make_shared<Scope>();
  try {
    declare_globals(state, *globals);
    if (context.is_object()) {
      for (const auto& [key, value] : context.items()) {
        if (globals->has_own(key)) throw EvalError("Variable already declared: " + key);
        globals->set(key, value_from_json(state, value));
      }
    }
  } catch (const EvalError& error) {
    throw TemplateError(parsed_->name, {}, error.what());
  }
  try {
    return Interpreter(state).run(parsed_->program, globals);
  } catch (const LocatedError& error) {
    throw TemplateError(parsed_->name, parsed_->lines.at(error.offset), error.problem);
  }
}

}  // namespace infergate::jinja
