#include "bench/workload/overrides.h"

#include <algorithm>
#include <cctype>

#include "bench/workload/workload_error.h"

namespace infergate {

namespace {

WorkloadError bad_override(const std::string& assignment, const std::string& problem) {
  return WorkloadError("", "--set " + assignment, "", "path=value", problem);
}

std::vector<std::string> split_path(const std::string& assignment, const std::string& path) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot - start));
    if (segments.back().empty()) {
      throw bad_override(assignment, "empty path segment (expected path=value, e.g. load.rate=4)");
    }
    if (dot == std::string::npos) return segments;
    start = dot + 1;
  }
}

nlohmann::json parse_value(const std::string& assignment, const std::string& text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!value.is_discarded()) return value;
  // Not JSON: a plain string such as `poisson`, which must still be valid UTF-8 to be recorded.
  try {
    return nlohmann::json::parse(nlohmann::json(text).dump());
  } catch (const nlohmann::json::exception&) {
    throw bad_override(assignment, "the value is not valid UTF-8");
  }
}

bool is_index(const std::string& segment, const nlohmann::json& node) {
  const auto digit = [](unsigned char c) { return std::isdigit(c) != 0; };
  return node.is_array() && std::all_of(segment.begin(), segment.end(), digit) &&
         segment.size() < 10 && std::stoul(segment) < node.size();
}

// The element the next segment goes into, created as an object when missing.
nlohmann::json& step_into(nlohmann::json& node, const std::string& segment,
                          const std::string& assignment, const std::string& walked) {
  if (is_index(segment, node)) return node[std::stoul(segment)];
  if (node.is_null()) node = nlohmann::json::object();
  if (!node.is_object()) {
    throw bad_override(assignment, walked + " is " + node.dump() + ", not an object");
  }
  return node[segment];
}

}  // namespace

Override parse_override(const std::string& assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    throw bad_override(assignment, "expected path=value (e.g. load.rate=4)");
  }
  const std::string path = assignment.substr(0, equals);
  if (path.empty()) throw bad_override(assignment, "empty path (expected path=value)");
  return {split_path(assignment, path), parse_value(assignment, assignment.substr(equals + 1))};
}

void apply_override(nlohmann::json& doc, const std::string& assignment) {
  const Override o = parse_override(assignment);
  nlohmann::json* node = &doc;
  std::string walked;
  for (size_t i = 0; i + 1 < o.path.size(); ++i) {
    node = &step_into(*node, o.path[i], assignment, walked.empty() ? "the document" : walked);
    walked += (walked.empty() ? "" : ".") + o.path[i];
  }
  const std::string& last = o.path.back();
  if (o.value.is_null() && node->is_object()) {
    node->erase(last);
    return;
  }
  step_into(*node, last, assignment, walked.empty() ? "the document" : walked) = o.value;
}

}  // namespace infergate
