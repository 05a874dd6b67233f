// Helpers for the Jinja interpreter's tests: render a template, or the message it raises.
// Expected outputs were checked against @huggingface/jinja 0.5.11, the interpreter
// transformers.js uses (tests/interop/hf_chat_templates.sh compares whole chat templates).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/jinja/jinja_template.h"

namespace infergate::jinja::testing {

using Json = nlohmann::ordered_json;

inline std::string render(std::string_view source, const Json& context = Json::object(),
                          const Limits& limits = {}) {
  return Template(source, "test.jinja", limits).render(context, limits);
}

// The full message of the TemplateError that parsing or rendering raises; "" when none.
inline std::string error_of(std::string_view source, const Json& context = Json::object(),
                            const Limits& limits = {}) {
  try {
    render(source, context, limits);
  } catch (const TemplateError& error) {
    return error.what();
  }
  return "";
}

// Just the problem, without the template's name and position.
inline std::string problem_of(std::string_view source, const Json& context = Json::object(),
                              const Limits& limits = {}) {
  try {
    render(source, context, limits);
  } catch (const TemplateError& error) {
    return error.problem();
  }
  return "";
}

}  // namespace infergate::jinja::testing
