#include "bench/workload/overrides.h"

#include <algorithm>
#include <cctype>

#include "bench/workload/strict_json.h"
#include "bench/workload/workload_error.h"
#include "common/io/json_excerpt.h"

namespace infergate {

namespace {

constexpr size_t kMaxOverrideChars = 80;

WorkloadError bad_override(const std::string& assignment, const std::string& problem) {
  return WorkloadError("", "--set " + override_text(assignment), "", "path=value", problem);
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

// The value lands `path.size()` levels deep, so it may nest only what is left of the limit.
nlohmann::json parse_value(const std::string& assignment, const std::vector<std::string>& path,
                           const std::string& text) {
  std::string root = "$";
  for (const std::string& segment : path) root += "." + path_segment(segment);
  try {
    return parse_strict_json(text, root, kMaxWorkloadDepth - int(path.size()));
  } catch (const StrictJsonError& e) {
    throw bad_override(assignment, e.path() + ": " + e.what());
  } catch (const nlohmann::json::parse_error&) {
  }
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
    throw bad_override(assignment, walked + " is " + json_excerpt(node) + ", not an object");
  }
  return node[segment];
}

}  // namespace

std::string override_text(const std::string& assignment) {
  if (assignment.size() <= kMaxOverrideChars) return assignment;
  size_t end = kMaxOverrideChars - 3;
  while (end > 0 && (static_cast<unsigned char>(assignment[end]) & 0xC0) == 0x80) --end;
  return assignment.substr(0, end) + "...";
}

Override parse_override(const std::string& assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    throw bad_override(assignment, "expected path=value (e.g. load.rate=4)");
  }
  const std::string path = assignment.substr(0, equals);
  if (path.empty()) throw bad_override(assignment, "empty path (expected path=value)");
  std::vector<std::string> segments = split_path(assignment, path);
  if (segments.size() >= size_t(kMaxWorkloadDepth)) {
    throw bad_override(assignment, std::to_string(segments.size()) +
                                       " path segments nest too deep (at most " +
                                       std::to_string(kMaxWorkloadDepth - 1) + ")");
  }
  nlohmann::json value = parse_value(assignment, segments, assignment.substr(equals + 1));
  return {std::move(segments), std::move(value)};
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
