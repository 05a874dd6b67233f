// The report's client-and-server table (gates/report/server_side_section.h), read from a
// repetition's "server" section (common/results/server_side_record.h).
#include "gates/report/server_side_section.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

ResultsFile run_with_server(const ServerSideRecord& server) {
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
  ServerSideRecord server;
  server.metrics.ttft_ms = ServerLatency{14, 11.5, 10, 20, 30};
  server.metrics.itl_ms = ServerLatency{90, 2.25, 1.5, 3, 4.5};
  TtftCrossCheck check;
  check.client_mean_ms = 14.5;
  check.difference_ms = 3;
  check.bound_ms = 1.6;
  check.disagreement = true;
  check.reason = "the difference +3 ms exceeds the bound";
  server.ttft_cross_check = check;
  const ResultsFile run = run_with_server(server);
  const std::string html = server_side_section({{"run", "#000", &run}});
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">14.5</td><td class=\"num\">11.5</td>"
                                   "<td class=\"num\">10</td><td class=\"num\">20</td>"
                                   "<td class=\"num\">30</td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">2.25</td><td class=\"num\">1.5</td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"v-regressed\">disagree</td>"));
  CHECK_THAT(html, Catch::Contains("exceeds the bound"));

  ServerSideRecord unavailable;
  unavailable.metrics.available = false;
  const ResultsFile none = run_with_server(unavailable);
  CHECK_THAT(server_side_section({{"run", "#000", &none}}),
             Catch::Contains("No repetition with a server"));
}

TEST_CASE("server side section: without a cross-check or a mean, dashes") {
  ServerSideRecord server;
  server.metrics.ttft_ms = ServerLatency{0, std::nullopt, std::nullopt, std::nullopt, 7};
  const ResultsFile run = run_with_server(server);
  const std::string html = server_side_section({{"run", "#000", &run}});
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">-</td><td class=\"num\">-</td>"
                                   "<td class=\"num\">-</td><td class=\"num\">-</td>"
                                   "<td class=\"num\">7</td>"));
  CHECK_THAT(html, Catch::Contains("<td>-</td><td></td></tr>"));
}

}  // namespace
}  // namespace infergate
