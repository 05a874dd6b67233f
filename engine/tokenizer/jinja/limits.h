// What one render may spend. A chat template is code from a model repository: these bounds turn
// a template that loops, recurses or grows values without end into a TemplateError that names
// the limit, before the time or memory is spent.
#pragma once

#include <cstddef>
#include <cstdint>

namespace infergate::jinja {

struct Limits {
  // Evaluation steps: one per expression or statement evaluated, plus one per element or 16
  // bytes that a filter, method or operator copies or compares; bounds time and allocation.
  int64_t max_steps = 5'000'000;
  // Bytes of the rendered text, and of any string built on the way.
  size_t max_output_bytes = 16u << 20;
  // Nesting: of the template's syntax, of evaluation (macro calls included) and of values.
  // Parsing and evaluation take up to 2 KiB of stack per level: the default needs about 1 MiB
  // in a release build (a thread's default stack is 8 MiB), several times that with sanitizers.
  int max_depth = 500;
  // Elements of one list or object (range(), split(), list concatenation, the context's).
  size_t max_collection = 1'000'000;
};

}  // namespace infergate::jinja
