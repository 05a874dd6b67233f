// The Markdown report for pull-request comments and $GITHUB_STEP_SUMMARY.
#include <catch2/catch.hpp>

#include "gates/report/markdown_report.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("the markdown report opens with a banner naming the overall status", "[report]") {
  const std::string md = markdown_report(sample_comparison());
  CHECK_THAT(md, StartsWith("## infergate compare: REGRESSED: "));
  for (const unsigned char ch : md) {
    CHECK(ch < 0x80);  // plain text: no emoji (the sample has only ASCII names)
  }
}

TEST_CASE("the markdown report has a table row for every rule evaluation", "[report]") {
  const std::string md = markdown_report(sample_comparison());
  CHECK_THAT(md, Contains("| rule | metric | baseline | candidate | change | interval | p | "
                          "verdict |"));
  CHECK_THAT(md, Contains("| tpot-p95 | summary.tpot_ms.p95 | 30.2 ms | 45.03 ms | +49.1% | "
                          "[+47.1%, +51.1%] | 0.05 | **REGRESSED** |"));
  CHECK_THAT(md, Contains("| ttft-p95 | summary.ttft_ms.p95 | 92.97 ms | 93 ms | +0.04% | "));
  CHECK_THAT(md, Contains("| request-throughput | summary.request_throughput_rps | 7.62 req/s | "
                          "8.45 req/s | +10.9% | "));
  CHECK_THAT(md, Contains("| **INCONCLUSIVE** |"));              // e2e-p99 blocks
  CHECK_THAT(md, Contains("| itl-p50 | summary.itl_ms.p50 |"));  // warn: does not block
  CHECK_THAT(md, Contains("| REGRESSED (warn) |"));              // goodput
}

TEST_CASE("the markdown report gives the reasons, warnings and reproduce command", "[report]") {
  const std::string md = markdown_report(sample_comparison());
  CHECK_THAT(md, Contains("- **tpot-p95**: regressed by hand"));
  CHECK_THAT(md, Contains("### Warnings\n\n- baseline results/baseline.json is marked incomplete"));
  CHECK_THAT(md, Contains("```sh\ninfergate compare results/baseline.json 'out/candidate run.json' "
                          "--rules gates/default.json\n```"));
}

TEST_CASE("pipes and markup in names cannot break the markdown table", "[report]") {
  Comparison c = sample_comparison();
  c.evaluations[0].rule.name = "a|b <img> *x*";
  const std::string md = markdown_report(c);
  CHECK_THAT(md, Contains("| a\\|b &lt;img&gt; \\*x\\* | summary.tpot_ms.p95 |"));
}

TEST_CASE("an incomparable comparison's markdown lists the differing fields", "[report]") {
  const std::string md = markdown_report(incomparable_comparison());
  CHECK_THAT(md, StartsWith("## infergate compare: INCOMPARABLE: "));
  CHECK_THAT(md, Contains("### Environment differences (not compared)"));
  CHECK_THAT(md, Contains("| manifest.host.logical_cores | 2 | 8 |"));
  CHECK_THAT(md, !Contains("| rule | metric |"));
}

TEST_CASE("differences compared anyway add --allow-env-diff to the reproduce command", "[report]") {
  Comparison c = sample_comparison();
  c.differences = incomparable_comparison().differences;
  const std::string md = markdown_report(c);
  CHECK_THAT(md, Contains("### Environment differences (compared anyway)"));
  CHECK_THAT(md, Contains("--rules gates/default.json --allow-env-diff\n"));
}
