#include "engine/tokenizer/jinja/scope.h"

namespace infergate::jinja {

void Scope::set(std::string_view name, Value value) {
  const auto it = variables_.find(name);
  if (it != variables_.end()) {
    it->second = std::move(value);
  } else {
    variables_.emplace(std::string(name), std::move(value));
  }
}

bool Scope::has_own(std::string_view name) const {
  return name == "namespace" || variables_.find(name) != variables_.end();
}

Value Scope::lookup(RenderState& state, std::string_view name) const {
  int walked = 0;
  for (const Scope* scope = this; scope != nullptr; scope = scope->parent_.get()) {
    if (++walked % 8 == 0) state.charge(1);
    const auto it = scope->variables_.find(name);
    if (it != scope->variables_.end()) return it->second;
    if (name == "namespace") return namespace_function(state);
  }
  return Value();
}

}  // namespace infergate::jinja
