// A variable scope, as @huggingface/jinja's Environment: `set` writes the innermost scope,
// lookups walk outwards, an unknown name is undefined. Every scope starts with its own
// `namespace` (the constructor's default entry), so the builtin is always found first.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

class Scope {
 public:
  explicit Scope(std::shared_ptr<const Scope> parent = nullptr) : parent_(std::move(parent)) {}

  void set(std::string_view name, Value value);
  // Whether `name` is this scope's own (`namespace` always is).
  bool has_own(std::string_view name) const;
  // Charges a step per eight scopes walked: deep macro recursion makes long chains.
  Value lookup(RenderState& state, std::string_view name) const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::shared_ptr<const Scope> parent_;
  std::unordered_map<std::string, Value, Hash, std::equal_to<>> variables_;
};

using ScopePtr = std::shared_ptr<Scope>;

// The builtin `namespace(...)` (globals.h), which every scope holds.
Value namespace_function(RenderState& state);

}  // namespace infergate::jinja
