// The report's client-and-server table (gates/report/server_side_section.h), read from a
// repetition's "server" object as the results file holds it.
#include "gates/report/server_side_section.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

ResultsFile run_with_server(const nlohmann::json& server) {
  ResultsFile r;
  PointResult p;
  RepetitionResult rep;
  rep.summary = {{"itl_ms", {{"mean", 2.5}, {"p50", 2}, {"p95", 4}, {"p99", 5}}}};
  rep.server = server;
  p.repetitions = {rep};
  r.points = {p};
  return r;
}

TEST_CASE("server side section: client and server TTFT and ITL side by side, with the flag") {
  const ResultsFile run = run_with_server(
      {{"metrics",
        {{"ttft_ms", {{"count", 14}, {"mean", 11.5}, {"p50", 10}, {"p95", 20}, {"p99", 30}}},
         {"itl_ms", {{"count", 90}, {"mean", 2.25}, {"p50", 1.5}, {"p95", 3}, {"p99", 4.5}}}}},
       {"ttft_cross_check",
        {{"client_mean_ms", 14.5},
         {"difference_ms", 3},
         {"bound_ms", 1.6},
         {"disagreement", true},
         {"reason", "the difference +3 ms exceeds the bound"}}}});
  const std::string html = server_side_section({{"run", "#000", &run}});
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">14.5</td><td class=\"num\">11.5</td>"
                                   "<td class=\"num\">10</td><td class=\"num\">20</td>"
                                   "<td class=\"num\">30</td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">2.25</td><td class=\"num\">1.5</td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"v-regressed\">disagree</td>"));
  CHECK_THAT(html, Catch::Contains("exceeds the bound"));

  const ResultsFile none = run_with_server({{"metrics", {{"available", false}}}});
  CHECK_THAT(server_side_section({{"run", "#000", &none}}),
             Catch::Contains("No repetition with a server"));
}

}  // namespace
}  // namespace infergate
