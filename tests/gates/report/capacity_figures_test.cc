// Capacity at the SLO in the HTML reports: the throughput frontier (both sides on one chart)
// and the capacity search's path, with their notes when there is nothing to draw and every
// string from the data escaped.
#include <catch2/catch.hpp>
#include <string>

#include "gates/report/capacity_figures.h"
#include "gates/report/html_report.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

json summary(double tpot_p50, double output_tps, double good_fraction) {
  return {{"tpot_ms", {{"p50", tpot_p50}}},
          {"output_throughput_tps", output_tps},
          {"good_fraction", good_fraction}};
}

// Rates 1, 2, 4 and 8: the last misses the SLO (share 0.99).
ResultsFile rate_sweep(double scale = 1) {
  ResultsFile r;
  r.source = "sweep.json";
  r.workload = {{"target", {{"type", "engine"}}}, {"slo", {{"tpot_ms", 50.0}}}};
  const double rates[] = {1, 2, 4, 8};
  for (const double rate : rates) {
    PointResult p;
    p.sweep = {{"field", "load.rate"}, {"value", rate}};
    p.summary = summary(10 + 5 * rate, scale * 100 * rate, rate < 8 ? 1.0 : 0.9);
    p.repetitions.push_back({});
    r.points.push_back(std::move(p));
  }
  return r;
}

SearchProbeRecord probe(int64_t index, double load, const char* role, bool meets) {
  SearchProbeRecord p;
  p.index = index;
  p.load = load;
  p.role = role;
  p.meets = meets;
  if (meets) p.slo_ratio = 0.8;
  p.summary.ttft_ms.p99 = meets ? 71 : 1732;
  p.summary.tpot_ms.p50 = meets ? 20 : 45;
  p.summary.tpot_ms.p99 = meets ? 25 : 60;
  p.summary.output_throughput_tps = 10 * load;
  p.summary.good_fraction = meets ? 0.995 : 0.5;
  return p;
}

SearchRecord search() {
  SearchRecord s;
  s.field = "load.rate";
  s.unit = "req/s";
  s.goodput_share = 0.99;
  s.status = "found";
  s.verdict = "capacity 84.4 req/s at the SLO for 99% of requests";
  s.probes = {probe(0, 60, "from", true), probe(1, 120, "to", false), probe(2, 90, "bisect", false),
              probe(3, 82.5, "bisect", true)};
  s.capacity = 84.4;
  s.low = 82.5;
  s.high = 90;
  s.summary_probe = 3;
  s.cliffs = {{60, 120, 71, 1732, 24.4}};
  return s;
}

// One point, `searched` of its three repetitions with a search.
ResultsFile searched_run(int searched) {
  ResultsFile r;
  r.source = "search.json";
  r.workload = {{"target", {{"type", "engine"}}}, {"slo", {{"ttft_ms", 500.0}}}};
  r.points.emplace_back();
  for (int i = 0; i < 3; ++i) {
    RepetitionResult rep;
    rep.index = i;
    if (i < searched) rep.search = search();
    r.points[0].repetitions.push_back(rep);
  }
  return r;
}

}  // namespace

TEST_CASE("the frontier overlays both sides on one chart, marking the SLO", "[report]") {
  const ResultsFile baseline = rate_sweep(), candidate = rate_sweep(1.5);
  const std::string html = frontier_figures(
      {{"baseline", kBaselineColor, &baseline}, {"candidate", kCandidateColor, &candidate}});
  CHECK(count(html, "data-chart=\"frontier\"") == 1);
  CHECK(count(html, "<svg ") == 1);
  for (const char* side : {"baseline", "candidate"}) {
    CHECK_THAT(html, Contains(std::string("<title>") + side + " frontier</title>"));
    CHECK_THAT(html, Contains(std::string("<title>") + side + " meets the SLO</title>"));
    CHECK_THAT(html, Contains(std::string("<title>") + side + " misses the SLO</title>"));
  }
  CHECK_THAT(html, Contains(">output tokens/s per user (1 / TPOT p50)</text>"));
  CHECK_THAT(html, Contains(">output tokens/s per device</text>"));
  CHECK_THAT(html, Contains("load.rate=8.0: 20 tok/s per user, 800 tok/s per device, 90% good, "
                            "misses the SLO"));
  CHECK_THAT(html,
             Contains("baseline: per device = / 1 (tensor_parallel 1 x pipeline_parallel 1)"));
  CHECK_THAT(html, !Contains("class=\"note\""));
}

TEST_CASE("without an SLO the frontier's loads are plain dots", "[report]") {
  ResultsFile run = rate_sweep();
  run.workload.erase("slo");
  const std::string html = frontier_figures({{"run", kBaselineColor, &run}});
  CHECK(count(html, "data-chart=\"frontier\"") == 1);
  CHECK_THAT(html, Contains("<title>run loads</title>"));
  CHECK_THAT(html, !Contains("meets the SLO"));
  CHECK_THAT(html, Contains("no SLO in the workload"));
}

TEST_CASE("a side without a frontier gets a note saying what it needs", "[report]") {
  const ResultsFile sweep = rate_sweep(), single = searched_run(0);
  std::string html = frontier_figures({{"run", kBaselineColor, &single}});
  CHECK(count(html, "data-chart=\"frontier\"") == 0);
  CHECK_THAT(html, Contains("No throughput frontier: it needs a load.rate or load.concurrency "
                            "sweep of 2 or more points"));
  CHECK_THAT(html, Contains("capacity search (load.search)"));
  html = frontier_figures(
      {{"baseline", kBaselineColor, &sweep}, {"candidate", kCandidateColor, &single}});
  CHECK(count(html, "data-chart=\"frontier\"") == 1);
  CHECK_THAT(html, Contains("No throughput frontier for the candidate"));
  // A single point's search draws its probes instead.
  const ResultsFile searched = searched_run(1);
  html = frontier_figures({{"run", kBaselineColor, &searched}});
  CHECK(count(html, "data-chart=\"frontier\"") == 1);
  CHECK_THAT(html, Contains("probe 3: load.rate=82.5"));
  CHECK_THAT(html, Contains("from its search"));
}

TEST_CASE("a capacity search is drawn as its path with the bracket, probes and cliffs",
          "[report]") {
  const ResultsFile run = searched_run(3);
  const std::string html = search_path_figures({{"run", kBaselineColor, &run}});
  CHECK(count(html, "data-chart=\"search-path\"") == 1);  // the first repetition only
  CHECK_THAT(html, Contains("2 more repetition(s) searched too"));
  CHECK_THAT(html, Contains("<title>meets the SLO</title>"));
  CHECK_THAT(html, Contains("<title>misses the SLO</title>"));
  CHECK_THAT(html, Contains("#009E73"));
  CHECK_THAT(html, Contains("#CC79A7"));
  CHECK_THAT(html, Contains("<title>capacity 84.4 req/s</title>"));
  CHECK_THAT(html, Contains(">bracket low 82.5</text>"));
  CHECK_THAT(html, Contains(">bracket high 90</text>"));
  CHECK_THAT(html, Contains(">load (req/s)</text>"));
  CHECK_THAT(html, Contains("<figcaption>capacity 84.4 req/s at the SLO for 99% of "
                            "requests</figcaption>"));
  CHECK(count(html, "<tr class=\"v-improved\">") == 2);
  CHECK(count(html, "<tr class=\"v-regressed\">") == 2);
  CHECK_THAT(html, Contains("<td>bisect</td><td class=\"num\">90</td><td class=\"num\">-</td>"));
  CHECK_THAT(html, Contains("cliff: TTFT p99 71 ms at 60 req/s -&gt; 1732 ms at 120 req/s (24x)"));
}

TEST_CASE("without a capacity search the section says how to get one", "[report]") {
  const ResultsFile baseline = rate_sweep(), candidate = searched_run(0);
  const std::string html = search_path_figures(
      {{"baseline", kBaselineColor, &baseline}, {"candidate", kCandidateColor, &candidate}});
  CHECK(count(html, "data-chart") == 0);
  CHECK_THAT(html, Contains("No capacity search (repetitions[].search)"));
}

TEST_CASE("capacity figures escape every string from the data", "[report]") {
  ResultsFile run = searched_run(1);
  SearchRecord& s = *run.points[0].repetitions[0].search;
  s.field = "load.rate<script>";
  s.unit = "req/s<b>";
  s.verdict = "<script>alert(1)</script>";
  s.probes[0].role = "<i>from</i>";
  const std::vector<ReportSide> sides = {{"run", kBaselineColor, &run}};
  const std::string html = search_path_figures(sides) + frontier_figures(sides);
  CHECK(count(html, "data-chart=\"search-path\"") == 1);
  CHECK(count(html, "data-chart=\"frontier\"") == 1);
  CHECK_THAT(html, !Contains("<script>"));
  CHECK_THAT(html, !Contains("<b>"));
  CHECK_THAT(html, !Contains("<i>"));
  CHECK_THAT(html, Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(html, Contains("probe 0: load.rate&lt;script&gt;=60"));
  CHECK_THAT(html, Contains("load (req/s&lt;b&gt;)"));
}

TEST_CASE("the run report has the capacity sections", "[report]") {
  const std::string html = html_run_report(load_fixture("rate-sweep.json"));
  CHECK_THAT(html, Contains("<section id=\"capacity-search\">"));
  CHECK_THAT(html, Contains("<section id=\"frontier\">"));
  CHECK(count(html, "data-chart=\"frontier\"") == 1);  // four rates
  CHECK_THAT(html, Contains("No capacity search"));
}
