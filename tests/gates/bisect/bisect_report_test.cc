// The bisect report as data and as Markdown and console text: every tested commit with the
// metric, its change against the good end, and the first bad commit marked.
#include <catch2/catch.hpp>
#include <cmath>

#include "gates/bisect/bisect_report.h"

using namespace infergate;
using Catch::Matchers::Contains;

namespace {

TestedCommit tested(const std::string& commit, const char* role, StepAnswer answer, double value,
                    double change) {
  TestedCommit t;
  t.commit = commit;
  t.subject = "subject of " + commit.substr(0, 4);
  t.role = role;
  t.answer = answer;
  t.verdict = role == std::string(kRoleGoodEnd) ? "baseline" : "pass";
  t.values = {value, value, value, value};
  t.value = value;
  if (role != std::string(kRoleGoodEnd)) {
    t.relative_change = change;
    t.interval_lo = change - 0.01;
    t.interval_hi = change + 0.01;
    t.p_value = change > 0.5 ? 0.0001 : 0.4;
  }
  t.rounds = 1;
  return t;
}

BisectReport found_report() {
  BisectReport r;
  r.settings.metric = "summary.tpot_ms.p50";
  r.settings.good = std::string(40, 'a');
  r.settings.bad = std::string(40, 'd');
  r.settings.measure.repetitions = 4;
  r.settings.measure.workload_path = "/w/tiny.json";
  r.status = BisectStatus::kFound;
  r.first_bad = std::string(40, 'c');
  r.message = "first bad commit: " + r.first_bad + " subject of cccc";
  r.commits = {tested(std::string(40, 'a'), kRoleGoodEnd, StepAnswer::kGood, 2.5, 0),
               tested(std::string(40, 'b'), kRoleStep, StepAnswer::kGood, 2.55, 0.02),
               tested(std::string(40, 'c'), kRoleStep, StepAnswer::kBad, 9.5, 2.8),
               tested(std::string(40, 'd'), kRoleBadEnd, StepAnswer::kBad, 9.6, 2.84)};
  r.commits[2].verdict = r.commits[3].verdict = "regressed";
  r.command = "infergate bisect --good aaaa --bad dddd";
  return r;
}

}  // namespace

TEST_CASE("bisect.json names the first bad commit and lists every tested commit in order") {
  const nlohmann::json j = bisect_report_json(found_report());
  CHECK(j["schema"] == "infergate.bisect/v1");
  CHECK(j["status"] == "found");
  CHECK(j["first_bad"]["commit"] == std::string(40, 'c'));
  CHECK(j["first_bad"]["subject"] == "subject of cccc");
  CHECK(j["unit"] == "ms");
  REQUIRE(j["commits"].size() == 4);
  CHECK(j["commits"][0]["role"] == "good end");
  CHECK(j["commits"][0]["relative_change"].is_null());
  CHECK(j["commits"][2]["first_bad"] == true);
  CHECK(j["commits"][2]["answer"] == "bad");
  CHECK(j["commits"][2]["value"] == 9.5);
  CHECK(j["commits"][2]["repetitions"] == 4);
  CHECK(j["commits"][1]["first_bad"] == false);
  CHECK(j["settings"]["metric"] == "summary.tpot_ms.p50");
}

TEST_CASE("a tested commit survives the trip through JSON a bisect step writes") {
  const TestedCommit t = found_report().commits[2];
  const TestedCommit back = tested_commit_from_json(to_json(t));
  CHECK(back.commit == t.commit);
  CHECK(back.answer == StepAnswer::kBad);
  CHECK(back.values == t.values);
  CHECK(back.relative_change == t.relative_change);
  CHECK(back.interval_hi == t.interval_hi);
  const TestedCommit good = tested_commit_from_json(to_json(found_report().commits[0]));
  CHECK(std::isnan(good.relative_change));
}

TEST_CASE("the console table has a row per commit with value and change, first bad marked") {
  const std::string text = bisect_report_text(found_report());
  CHECK_THAT(text, Contains("first bad commit: cccccccccccccccccccccccccccccccccccccccc"));
  CHECK_THAT(text, Contains("summary.tpot_ms.p50"));
  CHECK_THAT(text, Contains("aaaaaaaaaa  good    2.5 ms"));
  CHECK_THAT(text, Contains("baseline"));
  CHECK_THAT(text, Contains("+280.0%"));
  CHECK_THAT(text, Contains("(first bad)"));
  CHECK_THAT(text, Contains("(bad end)"));
}

TEST_CASE("bisect.md has a table row per tested commit and the first bad one in bold") {
  const std::string md = bisect_report_markdown(found_report());
  CHECK_THAT(md, Contains("# infergate bisect: first bad commit `cccccccccc`"));
  CHECK_THAT(md, Contains("| **`cccccccccc`** | **bad** | 9.5 ms | +280.0% |"));
  CHECK_THAT(md, Contains("| `bbbbbbbbbb` | good | 2.55 ms | +2.00% |"));
  CHECK_THAT(md, Contains("Reproduce: `infergate bisect --good aaaa --bad dddd`"));
}

TEST_CASE("Markdown cells escape what would break the table") {
  BisectReport r = found_report();
  r.commits[1].subject = "use a|b <b>bold</b> and snake_case";
  const std::string md = bisect_report_markdown(r);
  CHECK_THAT(md, Contains("use a\\|b &lt;b&gt;bold&lt;/b&gt; and snake\\_case"));
}

TEST_CASE("a skipped commit shows why, and the status words and exit codes are fixed") {
  BisectReport r = found_report();
  r.commits[1].answer = StepAnswer::kSkip;
  r.commits[1].verdict = "build failed";
  r.commits[1].reason = "the build command exited with 2 (log: /c/build.log)";
  CHECK_THAT(bisect_report_markdown(r),
             Contains("`bbbbbbbbbb` skipped: the build command exited with 2 (log: /c/build.log)"));
  CHECK(bisect_exit_code(BisectStatus::kFound) == 0);
  CHECK(bisect_exit_code(BisectStatus::kOnlySkippedLeft) == 1);
  CHECK(bisect_exit_code(BisectStatus::kEndsDoNotDiffer) == 3);
  CHECK(std::string(to_string(BisectStatus::kEndsDoNotDiffer)) == "ends-do-not-differ");
}

TEST_CASE("one line per tested commit for the progress output") {
  const BisectReport r = found_report();
  const MetricKey key = parse_metric_key(r.settings.metric);
  CHECK(tested_commit_line(r.commits[2], key) ==
        "cccccccccc bad: 9.5 ms, +280.0% [+279.0%, +281.0%] vs good, p <0.001 (4 repetitions): "
        "subject of cccc");
  TestedCommit failed;
  failed.commit = std::string(40, 'e');
  failed.subject = "broken";
  failed.verdict = "build failed";
  failed.reason = "the build command exited with 1";
  CHECK(tested_commit_line(failed, key) ==
        "eeeeeeeeee skip: build failed: the build command exited with 1: broken");
}
