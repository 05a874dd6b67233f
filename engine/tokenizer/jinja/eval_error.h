// A problem found while evaluating, not yet placed in the source: the interpreter adds the
// position of the innermost node being evaluated and turns it into a TemplateError.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace infergate::jinja {

class EvalError : public std::runtime_error {
 public:
  explicit EvalError(const std::string& problem) : std::runtime_error(problem) {}
};

// An EvalError placed: the source offset of the node it came from.
struct LocatedError {
  std::string problem;
  uint32_t offset;
};

}  // namespace infergate::jinja
