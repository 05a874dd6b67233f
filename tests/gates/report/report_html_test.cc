// The HTML reports, drawn from the results-file fixtures in tests/gates/data/ (written by
// `infergate run`; see tests/gates/data/README.md). Rendering in a browser is checked by
// html_report_in_chromium.sh.
#include <catch2/catch.hpp>
#include <string>

#include "gates/report/html_report.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;
using Catch::Matchers::Contains;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

struct Fixtures {
  ResultsFile baseline = load_fixture("quickstart-baseline.json");
  ResultsFile candidate = load_fixture("quickstart-candidate.json");
  Comparison comparison = sample_comparison();
};

}  // namespace

TEST_CASE("the comparison report has the verdict banner coloured by the overall label",
          "[report]") {
  Fixtures f;
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK_THAT(html,
             Contains("<div class=\"banner regressed\">" + f.comparison.headline() + "</div>"));
  const std::string incomparable = html_report(incomparable_comparison(), f.baseline, f.candidate);
  CHECK_THAT(incomparable, Contains("<div class=\"banner incomparable\">INCOMPARABLE: "));
  CHECK_THAT(incomparable, Contains("Not compared: 2 fingerprint field(s) differ"));
}

TEST_CASE("the comparison report draws an SVG chart of every kind", "[report]") {
  Fixtures f;
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK(count(html, "data-chart=\"latency-cdf\"") == 4);  // TTFT, TPOT, ITL, E2E
  CHECK(count(html, "data-chart=\"repetitions\"") == f.comparison.evaluations.size());
  CHECK(count(html, "data-chart=\"memory-timeline\"") == 1);
  CHECK(count(html, "data-chart=\"utilization-timeline\"") == 1);
  CHECK(count(html, "data-chart=\"step-breakdown\"") == 1);
  // One load point per side: no curve, and a note that says why.
  CHECK(count(html, "data-chart=\"throughput-latency\"") == 0);
  CHECK_THAT(html, Contains("sweep the load"));
  CHECK(count(html, "<svg ") == count(html, "</svg>"));
  // Each side's lines, and the axes labelled with units.
  CHECK_THAT(html, Contains("<title>baseline (120)</title>"));  // 40 requests x 3 repetitions
  CHECK_THAT(html, Contains("<title>candidate (120)</title>"));
  CHECK_THAT(html, Contains(">TTFT (ms)</text>"));
  CHECK_THAT(html, Contains(">RSS (MiB)</text>"));
}

TEST_CASE("the comparison report has the rules table, environment table and reproduce command",
          "[report]") {
  Fixtures f;
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK_THAT(html, Contains("<tr class=\"v-regressed\"><td>tpot-p95</td>"));
  CHECK_THAT(html, Contains("<td class=\"num\">+49.1%</td>"));
  CHECK_THAT(html, Contains("<td class=\"verdict\">regressed (fails the gate)</td>"));
  CHECK_THAT(html, Contains("<td>manifest.host.cpu_model</td>"));
  CHECK_THAT(html, Contains("<pre>infergate compare results/baseline.json &#39;out/candidate "
                            "run.json&#39; --rules gates/default.json</pre>"));
}

TEST_CASE("a sweep's run report has the throughput-latency curves and headline numbers",
          "[report]") {
  const ResultsFile sweep = load_fixture("rate-sweep.json");
  const std::string html = html_run_report(sweep);
  CHECK_THAT(html, Contains("<div class=\"banner run\">RUN rate-sweep: 4 point(s)"));
  CHECK(count(html, "data-chart=\"throughput-latency\"") == 2);  // TTFT p95, TPOT p95
  CHECK(count(html, "data-chart=\"latency-cdf\"") == 16);        // 4 metrics x 4 points
  CHECK(count(html, "data-chart=\"step-breakdown\"") == 1);
  CHECK_THAT(html, Contains("<td>load.rate=16.0</td>"));
  CHECK_THAT(html, Contains(">request throughput (req/s)</text>"));
  CHECK_THAT(html, Contains("TTFT distribution @ load.rate=4.0"));
}

TEST_CASE("the HTML reports are self-contained: no network references, no script", "[report]") {
  Fixtures f;
  for (const std::string& html : {html_report(f.comparison, f.baseline, f.candidate),
                                  html_run_report(load_fixture("rate-sweep.json"))}) {
    CHECK_THAT(html, !Contains("http://"));
    CHECK_THAT(html, !Contains("https://"));
    CHECK_THAT(html, !Contains("<script"));
    CHECK_THAT(html, !Contains("<link"));
    CHECK_THAT(html, !Contains("src="));
    CHECK_THAT(html, !Contains("url("));
  }
}

TEST_CASE("strings from the data are HTML-escaped", "[report]") {
  Fixtures f;
  f.comparison.workload_name = "q&a <b>";
  f.comparison.evaluations[0].rule.name = "<script>alert(1)</script>";
  f.comparison.evaluations[0].reason = "\"quoted\" & <tagged>";
  f.comparison.warnings = {"<img src=x>"};
  f.baseline.points[0].repetitions[0].engine.reset();
  f.baseline.source = "dir/<base>.json";
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK_THAT(html, !Contains("<script>"));
  CHECK_THAT(html, !Contains("<tagged>"));
  CHECK_THAT(html, !Contains("<img"));
  CHECK_THAT(html, !Contains("<base>"));
  CHECK_THAT(html, Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(html, Contains("<title>infergate compare: q&amp;a &lt;b&gt;</title>"));
  CHECK_THAT(html, Contains("&quot;quoted&quot; &amp; &lt;tagged&gt;"));
  CHECK_THAT(html, Contains("dir/&lt;base&gt;.json"));
}

TEST_CASE("without request records the report says so instead of drawing CDFs", "[report]") {
  Fixtures f;
  for (ResultsFile* side : {&f.baseline, &f.candidate}) {
    for (RepetitionResult& r : side->points[0].repetitions) r.requests.clear();
  }
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK(count(html, "data-chart=\"latency-cdf\"") == 0);
  CHECK_THAT(html, Contains("No per-request records in the baseline"));
  CHECK_THAT(html, Contains("No per-request records in the candidate"));
}

TEST_CASE("without engine step times the breakdown is omitted with a note", "[report]") {
  Fixtures f;
  for (RepetitionResult& r : f.candidate.points[0].repetitions) r.engine.reset();
  std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK(count(html, "data-chart=\"step-breakdown\"") == 1);  // the baseline's bar remains
  CHECK_THAT(html, Contains("No engine step times for candidate"));
  for (RepetitionResult& r : f.baseline.points[0].repetitions) r.engine.reset();
  html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK(count(html, "data-chart=\"step-breakdown\"") == 0);
  CHECK_THAT(html, Contains("No engine step times for baseline"));
}

TEST_CASE("timelines with GPU utilization chart both CPU and GPU", "[report]") {
  Fixtures f;
  for (RepetitionResult& r : f.candidate.points[0].repetitions) {
    for (TimelineSample& sample : r.timeline) sample.gpu_utilization_pct = 42.0;
  }
  const std::string html = html_report(f.comparison, f.baseline, f.candidate);
  CHECK(count(html, "data-chart=\"utilization-timeline\"") == 1);
  CHECK_THAT(html, Contains("<title>candidate GPU</title>"));
  CHECK_THAT(html, Contains("<title>candidate CPU</title>"));
}

TEST_CASE("a router target's run report charts each replica's load and marks the fault",
          "[report]") {
  Fixtures f;
  ResultsFile run = f.candidate;
  RepetitionResult& r = run.points[0].repetitions[0];
  for (TimelineSample& sample : r.timeline) {
    RouterRecord& router = sample.target.emplace().router.emplace();
    router.live = true;
    router.policy = "least-outstanding";
    router.replicas = {
        {"http://127.0.0.1:1", 0, 0, 0, 0, 0, sample.t_ms < 500 ? 3 : 0, sample.t_ms < 500},
        {"http://127.0.0.1:2", 0, 0, 0, 0, 0, 4, true}};
  }
  r.engine.emplace().router.emplace().faults = {{0, 7, 500.0, 0, ""}};
  const std::string html = html_run_report(run);
  CHECK(count(html, "data-chart=\"replica-timeline\"") == 1);  // one repetition has them
  CHECK_THAT(html, Contains("<title>replica 0</title>"));
  CHECK_THAT(html, Contains("<title>replica 1</title>"));
  CHECK_THAT(html, Contains("replica 0 killed"));
  CHECK_THAT(html_run_report(f.candidate), Contains("No router target in these results"));
}
