#include "gates/rules/rule_set.h"

#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "common/io/json_file.h"

namespace infergate {

namespace {

// Reads one JSON object, naming the file and the JSON path of whatever is wrong, and rejecting
// keys it was not asked for (a misspelled key must not silently fall back to a default).
class FieldReader {
 public:
  FieldReader(const nlohmann::json& obj, std::string path, const std::string& source)
      : obj_(obj), path_(std::move(path)), source_(source) {
    if (!obj_.is_object()) fail(path_, std::string("expected an object, got ") + obj_.type_name());
  }

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw RuleError(source_ + ": " + path + ": " + what);
  }
  std::string path_of(const std::string& key) const { return path_ + "." + key; }

  const nlohmann::json* find(const std::string& key) {
    known_.insert(key);
    const auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }
  std::string string(const std::string& key, const std::string& fallback, bool required = false) {
    const nlohmann::json* v = find(key);
    if (!v) {
      if (required) fail(path_of(key), "missing");
      return fallback;
    }
    if (!v->is_string())
      fail(path_of(key), std::string("expected a string, got ") + v->type_name());
    return v->get<std::string>();
  }
  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed, bool required = false) {
    const std::string s = string(key, fallback, required);
    for (const std::string& a : allowed) {
      if (s == a) return s;
    }
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(path_of(key), "'" + s + "' is not allowed (allowed: " + list + ")");
  }
  std::optional<double> number(const std::string& key, double min, double max) {
    const nlohmann::json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_number())
      fail(path_of(key), std::string("expected a number, got ") + v->type_name());
    const double d = v->get<double>();
    if (!(d >= min && d <= max)) {
      fail(path_of(key), std::to_string(d) + " is out of range (allowed: " + std::to_string(min) +
                             " .. " + std::to_string(max) + ")");
    }
    return d;
  }
  void finish() const {
    for (const auto& [key, _] : obj_.items()) {
      if (!known_.count(key)) {
        std::string list;
        for (const std::string& k : known_) list += (list.empty() ? "" : ", ") + k;
        fail(path_of(key), "unknown key (allowed: " + list + ")");
      }
    }
  }

 private:
  const nlohmann::json& obj_;
  std::string path_;
  const std::string& source_;
  std::set<std::string> known_;
};

// The fewest repetitions per side with which the exact one-sided U test can reach p < alpha:
// the most extreme arrangement has p = 1 / C(2n, n).
int repetitions_to_reach(double alpha) {
  double combinations = 1;  // C(2n, n)
  for (int n = 1; n < 64; ++n) {
    combinations = combinations * double(2 * n) * double(2 * n - 1) / double(n * n);
    if (1.0 / combinations < alpha) return n;
  }
  return 64;
}

std::vector<std::string> read_globs(FieldReader& r, const char* key = "workloads",
                                    std::vector<std::string> absent = {"*"}) {
  const nlohmann::json* v = r.find(key);
  if (!v) return absent;
  const std::string path = r.path_of(key);
  if (!v->is_array() || v->empty()) r.fail(path, "expected a non-empty array of glob strings");
  std::vector<std::string> globs;
  for (size_t i = 0; i < v->size(); ++i) {
    const nlohmann::json& g = (*v)[i];
    if (!g.is_string() || g.get<std::string>().empty()) {
      r.fail(path + "[" + std::to_string(i) + "]", "expected a non-empty glob string");
    }
    globs.push_back(g.get<std::string>());
  }
  return globs;
}

void read_threshold(FieldReader& r, const std::string& source, GateRule& rule) {
  const nlohmann::json* v = r.find("threshold");
  const std::string path = r.path_of("threshold");
  if (!v) r.fail(path, "missing (give {\"relative\": 0.05} and/or {\"absolute\": N})");
  FieldReader t(*v, path, source);
  rule.relative_threshold = t.number("relative", 0, 10);
  rule.absolute_threshold = t.number("absolute", 0, 1e300);
  t.finish();
  if (!rule.relative_threshold && !rule.absolute_threshold) {
    r.fail(path, "needs \"relative\" (a fraction, 0.05 = 5%) and/or \"absolute\" (metric units)");
  }
}

// A path inside the justification root: relative, and never climbing out of it with "..".
void check_justification_path(FieldReader& r, const std::string& file) {
  const std::filesystem::path p(file);
  bool climbs = false;
  for (const std::filesystem::path& part : p) climbs = climbs || part == "..";
  if (p.is_absolute() || climbs || file.empty()) {
    r.fail(r.path_of("justification_file"),
           "'" + file +
               "' must be a relative path inside the change's checkout (no leading /, no ..), "
               "e.g. perf-justifications/peak-memory.md");
  }
}

ErrorShareRule read_error_share_rule(FieldReader& r) {
  ErrorShareRule rule;
  rule.name = r.string("name", "", true);
  rule.description = r.string("description", "");
  const std::optional<double> max = r.number("max_share", 0, 1);
  if (!max) r.fail(r.path_of("max_share"), "missing (a fraction of requests, 0.01 = 1%)");
  rule.max_share = *max;
  rule.workloads = read_globs(r);
  r.finish();
  return rule;
}

GateRule read_rule(FieldReader& r, int fewest_repetitions, const std::string& source, bool exact) {
  GateRule rule;
  rule.exact = exact;
  rule.name = r.string("name", "", true);
  rule.description = r.string("description", "");
  const std::string metric = r.string("metric", "", true);
  try {
    rule.metric = parse_metric_key(metric);
  } catch (const std::invalid_argument& e) {
    r.fail(r.path_of("metric"), e.what());
  }
  rule.better = r.choice("better", "", {"lower", "higher"}, true) == "lower"
                    ? Direction::kLowerIsBetter
                    : Direction::kHigherIsBetter;
  read_threshold(r, source, rule);
  const std::string severity =
      r.choice("severity", "fail", {"fail", "warn", "needs-justification"});
  rule.severity = severity == "fail"   ? Severity::kFail
                  : severity == "warn" ? Severity::kWarn
                                       : Severity::kNeedsJustification;
  rule.workloads = read_globs(r);
  rule.except_workloads = read_globs(r, "except_workloads", {});
  rule.min_repetitions = int(r.number("min_repetitions", 1, 1000).value_or(exact ? 1 : 5));
  if (!exact && rule.min_repetitions < fewest_repetitions) {
    r.fail(r.path_of("min_repetitions"),
           std::to_string(rule.min_repetitions) + " is too few: with fewer than " +
               std::to_string(fewest_repetitions) +
               " repetitions per side the U test can never reach the file's alpha, so a "
               "regression could never be declared");
  }
  rule.justification_file = r.string("justification_file", "");
  if (rule.severity == Severity::kNeedsJustification && rule.justification_file.empty()) {
    rule.justification_file = "perf-justifications/" + rule.name + ".md";
  }
  if (rule.severity == Severity::kNeedsJustification) {
    check_justification_path(r, rule.justification_file);
  }
  r.finish();
  return rule;
}

}  // namespace

RuleSet parse_rule_set(const nlohmann::json& doc, const std::string& source) {
  FieldReader top(doc, "$", source);
  RuleSet set;
  set.source = source;
  const std::string schema = top.string("schema", "", true);
  if (schema != kGatesSchema) {
    top.fail("$.schema", "is '" + schema + "', expected '" + kGatesSchema + "'");
  }
  top.string("description", "");
  if (const nlohmann::json* stats = top.find("statistics")) {
    FieldReader s(*stats, "$.statistics", source);
    set.alpha = s.number("alpha", 1e-6, 0.5).value_or(set.alpha);
    set.confidence = s.number("confidence", 0.5, 0.999).value_or(set.confidence);
    set.bootstrap_iterations =
        int(s.number("bootstrap_iterations", 100, 1e6).value_or(set.bootstrap_iterations));
    s.finish();
  }
  const nlohmann::json* rules = top.find("rules");
  if (!rules || !rules->is_array() || rules->empty()) {
    top.fail("$.rules", "expected a non-empty array of rules");
  }
  top.finish();
  const int fewest = repetitions_to_reach(set.alpha);
  std::set<std::string> names;
  for (size_t i = 0; i < rules->size(); ++i) {
    const std::string path = "$.rules[" + std::to_string(i) + "]";
    FieldReader r((*rules)[i], path, source);
    std::string name;
    const std::string kind = r.choice("kind", "metric", {"metric", "quality", "error-share"});
    if (kind == "error-share") {
      set.error_share_rules.push_back(read_error_share_rule(r));
      name = set.error_share_rules.back().name;
    } else {
      set.rules.push_back(read_rule(r, fewest, source, kind == "quality"));
      name = set.rules.back().name;
    }
    if (!names.insert(name).second) {
      throw RuleError(source + ": " + path + ".name: duplicate rule name '" + name + "'");
    }
  }
  return set;
}

ErrorShareLimit RuleSet::error_share_limit(const std::string& workload_name) const {
  std::optional<ErrorShareLimit> limit;
  for (const ErrorShareRule& rule : error_share_rules) {
    GateRule scope;  // the same glob matching as the metric rules
    scope.workloads = rule.workloads;
    if (!scope.applies_to(workload_name)) continue;
    if (!limit || rule.max_share < limit->max_share)
      limit = ErrorShareLimit{rule.max_share, rule.name};
  }
  return limit.value_or(ErrorShareLimit{});
}

RuleSet load_rule_set(const std::string& path) {
  try {
    return parse_rule_set(read_json_file(path), path);
  } catch (const JsonFileError& e) {
    throw RuleError(e.what());
  }
}

}  // namespace infergate
