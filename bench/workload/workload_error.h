// A workload file the harness refuses, said once and precisely: the file, where in it (a JSON
// path such as `$.load.rate`, or `line 3, column 5` for syntax errors), the offending value and
// what is allowed. Every command that reads a workload reports these verbatim; nothing runs.
#pragma once

#include <stdexcept>
#include <string>

namespace infergate {

class WorkloadError : public std::runtime_error {
 public:
  // what() is "FILE: WHERE: PROBLEM", leaving out the empty parts.
  WorkloadError(std::string file, std::string where, std::string value, std::string allowed,
                const std::string& problem);

  // `<value> is not allowed (allowed: a, b, c)`
  static WorkloadError not_allowed(const std::string& file, const std::string& path,
                                   const std::string& value, const std::string& allowed);
  // `<value> is out of range (<rule>)`
  static WorkloadError out_of_range(const std::string& file, const std::string& path,
                                    const std::string& value, const std::string& rule);
  // `expected <expected>, got <value>`
  static WorkloadError wrong_type(const std::string& file, const std::string& path,
                                  const std::string& value, const std::string& expected);
  // `required key is missing (<rule>)`
  static WorkloadError missing(const std::string& file, const std::string& path,
                               const std::string& rule);
  // `unknown key (did you mean <suggestion>?; allowed: <allowed>)`
  static WorkloadError unknown_key(const std::string& file, const std::string& path,
                                   const std::string& suggestion, const std::string& allowed);

  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }      // JSON path, line/column or --set
  const std::string& value() const { return value_; }      // as JSON text; "" if none
  const std::string& allowed() const { return allowed_; }  // "" if not applicable

  // The same error with `note` appended to the message (e.g. which --set caused it).
  WorkloadError with_note(const std::string& note) const;

 private:
  std::string file_, where_, value_, allowed_, problem_;
};

}  // namespace infergate
