#include "engine/tokenizer/jinja/template_error.h"

namespace infergate::jinja {
namespace {

std::string describe(const std::string& name, SourcePos pos, const std::string& problem) {
  if (pos.line == 0) return name + ": " + problem;
  return name + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + problem;
}

}  // namespace

TemplateError::TemplateError(const std::string& name, SourcePos pos, const std::string& problem)
    : std::runtime_error(describe(name, pos, problem)), name_(name), pos_(pos), problem_(problem) {}

}  // namespace infergate::jinja
