#include "gates/report/junit_report.h"

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "gates/report/reproduce_command.h"

namespace infergate {

namespace {

// One <testcase>: its outcome element (failure, error, skipped or none) and its output.
struct TestCase {
  std::string name;
  std::string outcome;  // "", "failure", "error" or "skipped"
  std::string type;     // of the failure or error
  std::string message;
  std::string details;  // the outcome element's text
  std::string output;   // <system-out>
};

std::string attr(std::string_view text) { return escape_markup(text); }

std::string numbers_line(const RuleEvaluation& e) {
  return "metric " + e.rule.metric.text + ": baseline " +
         format_metric_value(e.baseline, e.rule.metric) + ", candidate " +
         format_metric_value(e.candidate, e.rule.metric) + ", change " +
         format_change(e.relative_change) + " " + format_interval(e.interval_lo, e.interval_hi) +
         ", threshold " + format_change(e.effective_threshold) + ", p " +
         format_p_value(e.p_value) + "\n";
}

TestCase evaluation_case(const RuleEvaluation& e) {
  TestCase t;
  t.name = e.point.empty() ? e.rule.name : e.rule.name + " @ " + e.point;
  const std::string summary = std::string(to_string(e.verdict)) + ": " + e.reason;
  t.output = numbers_line(e);
  for (const std::string& w : e.warnings) t.output += "warning: " + w + "\n";
  if (e.blocks()) {
    t.outcome = "failure";
    t.type = "regression";
  } else if (e.blocks_as_inconclusive()) {
    t.outcome = "error";
    t.type = "inconclusive";
  } else if (e.verdict == Verdict::kInconclusive) {
    t.outcome = "skipped";
  } else if (e.verdict == Verdict::kRegressed) {
    t.output += (e.justified ? "regressed, justified by " + e.rule.justification_file
                             : std::string("warning: regressed (severity ") +
                                   to_string(e.rule.severity) + ")") +
                ": " + e.reason + "\n";
  } else {
    t.output += summary + "\n";
  }
  if (!t.outcome.empty()) {
    t.message = summary;
    t.details = summary + "\n" + numbers_line(e);
  }
  return t;
}

TestCase fingerprint_case(const Comparison& c) {
  TestCase t;
  t.name = "fingerprint";
  std::string listing;
  for (const FieldDifference& d : c.differences) {
    listing += d.field + ": baseline " + d.baseline + ", candidate " + d.candidate + "\n";
  }
  if (!c.comparable) {
    t.outcome = "failure";
    t.type = "incomparable";
    t.message = std::to_string(c.differences.size()) +
                " fingerprint field(s) differ; the results were not compared";
    t.details = listing;
  } else if (!c.differences.empty()) {
    t.output = "compared anyway (--allow-env-diff):\n" + listing;
  } else {
    t.output = "the machine and build fingerprints match\n";
  }
  return t;
}

std::string render(const TestCase& t, const std::string& classname) {
  std::string xml = "    <testcase classname=\"" + attr(classname) + "\" name=\"" + attr(t.name) +
                    "\" time=\"0\">\n";
  if (t.outcome == "skipped") {
    xml += "      <skipped message=\"" + attr(t.message) + "\"/>\n";
  } else if (!t.outcome.empty()) {
    xml += "      <" + t.outcome + " type=\"" + attr(t.type) + "\" message=\"" + attr(t.message) +
           "\">" + escape_markup(t.details) + "</" + t.outcome + ">\n";
  }
  if (!t.output.empty()) xml += "      <system-out>" + escape_markup(t.output) + "</system-out>\n";
  return xml + "    </testcase>\n";
}

}  // namespace

std::string junit_report(const Comparison& c) {
  std::vector<TestCase> cases = {fingerprint_case(c)};
  for (const RuleEvaluation& e : c.evaluations) cases.push_back(evaluation_case(e));
  if (c.comparable && c.evaluations.empty()) {
    cases.push_back({"rules", "error", "inconclusive", c.headline(), c.headline(), ""});
  }
  int failures = 0, errors = 0, skipped = 0;
  for (const TestCase& t : cases) {
    failures += t.outcome == "failure";
    errors += t.outcome == "error";
    skipped += t.outcome == "skipped";
  }
  const std::string counts = "tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                             "\" skipped=\"" + std::to_string(skipped) + "\" time=\"0\"";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"infergate compare\" " + counts + ">\n";
  xml += "  <testsuite name=\"" + attr("infergate compare: " + c.workload_name) + "\" " + counts +
         ">\n";
  xml += "    <properties>\n";
  const std::pair<const char*, std::string> properties[] = {
      {"overall", c.overall_label()},     {"exit_code", std::to_string(c.exit_code())},
      {"headline", c.headline()},         {"baseline", c.baseline_path},
      {"candidate", c.candidate_path},    {"rules", c.rules_path},
      {"reproduce", reproduce_command(c)}};
  for (const auto& [name, value] : properties) {
    xml += "      <property name=\"" + std::string(name) + "\" value=\"" + attr(value) + "\"/>\n";
  }
  xml += "    </properties>\n";
  for (const TestCase& t : cases) xml += render(t, c.workload_name);
  if (!c.warnings.empty()) {
    std::string warnings;
    for (const std::string& w : c.warnings) warnings += "warning: " + w + "\n";
    xml += "    <system-out>" + escape_markup(warnings) + "</system-out>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace infergate
