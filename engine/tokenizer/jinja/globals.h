// The names every render starts with (runtime.ts setupGlobals): true, false, none and their
// title-case forms, raise_exception(message), range(...), strftime_now(format), and
// namespace(...), which every scope holds (scope.h).
#pragma once

#include "engine/tokenizer/jinja/scope.h"

namespace infergate::jinja {

void declare_globals(RenderState& state, Scope& scope);

// The error raise_exception() raises: the interpreter reports its message as the problem.
class RaisedException : public std::runtime_error {
 public:
  explicit RaisedException(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace infergate::jinja
