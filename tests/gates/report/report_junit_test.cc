// The JUnit XML report: well-formed whatever the names contain, and each verdict mapped to the
// outcome CI widgets show (docs/reports.md).
#include <catch2/catch.hpp>
#include <cctype>
#include <string>
#include <vector>

#include "gates/report/junit_report.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;
using Catch::Matchers::Contains;

namespace {

// A small XML 1.0 well-formedness check: one root, balanced and properly nested elements,
// quoted attributes without '<', and every '&' starting a predefined or numeric entity.
// Returns "" when well-formed, else what is wrong.
std::string xml_problem(const std::string& xml) {
  const auto entity_ok = [&](size_t at) {
    const size_t end = xml.find(';', at);
    if (end == std::string::npos) return false;
    const std::string name = xml.substr(at + 1, end - at - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") {
      return true;
    }
    if (name.size() < 2 || name[0] != '#') return false;
    for (size_t i = 1; i < name.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    }
    return true;
  };
  std::vector<std::string> open;
  int roots = 0;
  size_t i = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    const char c = xml[i];
    if (c == '&') {
      if (!entity_ok(i)) return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (c == '>') return "stray '>' at " + std::to_string(i);
    if (c != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) {
        return "text outside the root at " + std::to_string(i);
      }
      ++i;
      continue;
    }
    if (xml.compare(i, 2, "</") == 0) {
      const size_t end = xml.find('>', i);
      if (end == std::string::npos) return "unclosed end tag";
      const std::string name = xml.substr(i + 2, end - i - 2);
      if (open.empty() || open.back() != name) return "mismatched </" + name + ">";
      open.pop_back();
      i = end + 1;
      continue;
    }
    size_t j = i + 1;
    while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-' ||
                              xml[j] == '_' || xml[j] == ':')) {
      ++j;
    }
    const std::string name = xml.substr(i + 1, j - i - 1);
    if (name.empty()) return "bad tag at " + std::to_string(i);
    // Attributes: name="value" ...
    while (true) {
      while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j]))) ++j;
      if (j >= xml.size()) return "unterminated tag " + name;
      if (xml[j] == '>' || xml.compare(j, 2, "/>") == 0) break;
      const size_t eq = xml.find('=', j);
      if (eq == std::string::npos || eq + 1 >= xml.size() || xml[eq + 1] != '"') {
        return "unquoted attribute in " + name;
      }
      const size_t close = xml.find('"', eq + 2);
      if (close == std::string::npos) return "unterminated attribute in " + name;
      for (size_t k = eq + 2; k < close; ++k) {
        if (xml[k] == '<') return "'<' in an attribute of " + name;
        if (xml[k] == '&' && !entity_ok(k)) return "bad entity in an attribute of " + name;
      }
      j = close + 1;
    }
    if (open.empty()) ++roots;
    if (xml[j] == '>') {
      open.push_back(name);
      i = j + 1;
    } else {
      i = j + 2;
    }
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the well-formedness check used here rejects broken XML", "[report]") {
  CHECK(xml_problem("<a><b x=\"1\"/>t &amp; u</a>").empty());
  CHECK_FALSE(xml_problem("<a><b></a>").empty());
  CHECK_FALSE(xml_problem("<a x=\"<\"/>").empty());
  CHECK_FALSE(xml_problem("<a>R&D</a>").empty());
}

TEST_CASE("the JUnit report is well-formed XML with markup characters escaped", "[report]") {
  Comparison c = sample_comparison();
  c.workload_name = "chat & \"friends\"";
  c.evaluations[0].rule.name = "tpot<p95> & \"tail\"";
  c.evaluations[0].reason = "worse by > 5% & significant <really>";
  const std::string xml = junit_report(c);
  INFO(xml_problem(xml));
  CHECK(xml_problem(xml).empty());
  CHECK_THAT(xml, Contains("name=\"tpot&lt;p95&gt; &amp; &quot;tail&quot;\""));
  CHECK_THAT(xml, Contains("classname=\"chat &amp; &quot;friends&quot;\""));
  CHECK_THAT(xml, !Contains("tpot<p95>"));
  CHECK_THAT(xml, !Contains("<really>"));
}

TEST_CASE("control characters, which XML forbids, are replaced", "[report]") {
  Comparison c = sample_comparison();
  c.evaluations[0].reason = std::string("bell\x07 here");
  const std::string xml = junit_report(c);
  CHECK_THAT(xml, !Contains("\x07"));
  CHECK_THAT(xml, Contains("bell\xEF\xBF\xBD here"));
}

TEST_CASE(
    "blocking regressions fail, blocking inconclusive rules error, warn-rule "
    "inconclusive ones are skipped",
    "[report]") {
  const std::string xml = junit_report(sample_comparison());
  REQUIRE(xml_problem(xml).empty());
  // fingerprint + 6 evaluations.
  CHECK_THAT(xml, Contains("<testsuite name=\"infergate compare: quickstart\" tests=\"7\" "
                           "failures=\"1\" errors=\"1\" skipped=\"1\" time=\"0\">"));
  CHECK(count(xml, "<testcase ") == 7);
  CHECK(count(xml, "<failure ") == 1);
  CHECK(count(xml, "<error ") == 1);
  CHECK(count(xml, "<skipped ") == 1);
  CHECK_THAT(xml, Contains("<testcase classname=\"quickstart\" name=\"tpot-p95\" time=\"0\">\n"
                           "      <failure type=\"regression\" message=\"regressed: regressed by "
                           "hand\">"));
  CHECK_THAT(xml, Contains("name=\"e2e-p99\" time=\"0\">\n      <error type=\"inconclusive\""));
  CHECK_THAT(xml, Contains("name=\"itl-p50\" time=\"0\">\n      <skipped message="));
  // A warn-severity regression passes and says so in its output.
  CHECK_THAT(xml, Contains("warning: regressed (severity warn): regressed by hand"));
}

TEST_CASE("a sweep point is part of the JUnit test case name", "[report]") {
  Comparison c = sample_comparison();
  c.evaluations[1].point = "load.rate=4";
  CHECK_THAT(junit_report(c), Contains("name=\"ttft-p95 @ load.rate=4\""));
}

TEST_CASE(
    "an incomparable comparison is one failing fingerprint test case listing the "
    "differences",
    "[report]") {
  const std::string xml = junit_report(incomparable_comparison());
  REQUIRE(xml_problem(xml).empty());
  CHECK(count(xml, "<testcase ") == 1);
  CHECK_THAT(xml, Contains("tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\""));
  CHECK_THAT(xml,
             Contains("name=\"fingerprint\" time=\"0\">\n      <failure type=\"incomparable\""));
  CHECK_THAT(xml, Contains("manifest.host.cpu_model: baseline &quot;Intel(R) Xeon(R)&quot;, "
                           "candidate &quot;AMD EPYC 7B13&quot;"));
  CHECK_THAT(xml, Contains("manifest.host.logical_cores: baseline 2, candidate 8"));
}

TEST_CASE("a comparison no rule applies to is an error, not a silent pass", "[report]") {
  Comparison c = sample_comparison();
  c.evaluations.clear();
  const std::string xml = junit_report(c);
  REQUIRE(xml_problem(xml).empty());
  CHECK_THAT(xml, Contains("name=\"rules\" time=\"0\">\n      <error type=\"inconclusive\""));
}
