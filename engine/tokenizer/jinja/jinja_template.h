// A chat template, parsed once and rendered per request, as Hugging Face's @huggingface/jinja
// (the interpreter transformers.js uses) renders it: byte for byte on real chat templates,
// including its whitespace handling (trim_blocks and lstrip_blocks on), its tojson layout and
// its JavaScript value semantics. Every render is bounded by Limits; a template that loops,
// recurses, nests or grows values past them raises a TemplateError naming the limit.
//
//   Template chat(config["chat_template"].get<std::string>(), "qwen3");
//   std::string prompt = chat.render({{"messages", messages}, {"add_generation_prompt", true}});
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/jinja/limits.h"
#include "engine/tokenizer/jinja/template_error.h"

namespace infergate::jinja {

class Template {
 public:
  // Throws TemplateError on a syntax error (and on nesting deeper than limits.max_depth).
  Template(std::string_view source, std::string name, const Limits& limits = {});
  ~Template();
  Template(Template&&) noexcept;
  Template& operator=(Template&&) noexcept;

  // `context` is a JSON object whose keys become variables (messages, tools, bos_token, ...);
  // null is an empty context. Throws TemplateError, for raise_exception() with its message
  // as the problem. Renders share nothing: one template may render on many threads at once.
  std::string render(const nlohmann::ordered_json& context, const Limits& limits = {}) const;

  const std::string& name() const;

 private:
  struct Parsed;
  std::unique_ptr<const Parsed> parsed_;
};

}  // namespace infergate::jinja
