#include "bench/workload/workload_error.h"

#include <utility>

namespace infergate {

namespace {

std::string join_message(const std::string& file, const std::string& where,
                         const std::string& problem) {
  std::string message;
  for (const std::string* part : {&file, &where}) {
    if (part->empty()) continue;
    message += *part;
    message += ": ";
  }
  message += problem;
  return message;
}

}  // namespace

WorkloadError::WorkloadError(std::string file, std::string where, std::string value,
                             std::string allowed, const std::string& problem)
    : std::runtime_error(join_message(file, where, problem)),
      file_(std::move(file)),
      where_(std::move(where)),
      value_(std::move(value)),
      allowed_(std::move(allowed)),
      problem_(problem) {}

WorkloadError WorkloadError::not_allowed(const std::string& file, const std::string& path,
                                         const std::string& value, const std::string& allowed) {
  return WorkloadError(file, path, value, allowed,
                       value + " is not allowed (allowed: " + allowed + ")");
}

WorkloadError WorkloadError::out_of_range(const std::string& file, const std::string& path,
                                          const std::string& value, const std::string& rule) {
  return WorkloadError(file, path, value, rule, value + " is out of range (" + rule + ")");
}

WorkloadError WorkloadError::wrong_type(const std::string& file, const std::string& path,
                                        const std::string& value, const std::string& expected) {
  return WorkloadError(file, path, value, expected, "expected " + expected + ", got " + value);
}

WorkloadError WorkloadError::missing(const std::string& file, const std::string& path,
                                     const std::string& rule) {
  return WorkloadError(file, path, "", rule, "required key is missing (" + rule + ")");
}

WorkloadError WorkloadError::unknown_key(const std::string& file, const std::string& path,
                                         const std::string& suggestion,
                                         const std::string& allowed) {
  std::string problem = "unknown key (";
  if (!suggestion.empty()) problem += "did you mean " + suggestion + "?; ";
  problem += "allowed: " + allowed + ")";
  return WorkloadError(file, path, "", allowed, problem);
}

WorkloadError WorkloadError::with_note(const std::string& note) const {
  return WorkloadError(file_, where_, value_, allowed_, problem_ + " " + note);
}

}  // namespace infergate
