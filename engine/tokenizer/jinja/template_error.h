// The one error a template raises, at parse or render time: it names the template, the line and
// column in the template's source, and the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace infergate::jinja {

// A place in a template's source: 1-based line and column (in characters); 0 when unknown.
struct SourcePos {
  int line = 0;
  int column = 0;
};

class TemplateError : public std::runtime_error {
 public:
  TemplateError(const std::string& name, SourcePos pos, const std::string& problem);

  const std::string& name() const { return name_; }
  SourcePos pos() const { return pos_; }
  // What went wrong, without the place (for raise_exception: the template's own message).
  const std::string& problem() const { return problem_; }

 private:
  std::string name_;
  SourcePos pos_;
  std::string problem_;
};

}  // namespace infergate::jinja
