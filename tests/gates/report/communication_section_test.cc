#include "gates/report/communication_section.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

// An engine's statistics as a results file holds them, through the one reader.
ResultsFile run_with_engine(const std::optional<ParallelRecord>& parallel) {
  ResultsFile r;
  PointResult p;
  RepetitionResult rep;
  rep.engine.emplace().engine.emplace().parallel = parallel;
  p.repetitions = {rep, rep};
  r.points = {p};
  return r;
}

TEST_CASE("communication section: collectives per engine step, bubble and expert load") {
  ParallelRecord par;
  par.tensor_parallel = 2;
  par.pipeline_parallel = 2;
  par.steps = 10;
  par.ranks =
      ParallelRecord::Ranks{4, 2, {{"send", {20, 800, 0.01}}}, {{"all_reduce", {40, 4000, 0.02}}}};
  par.pipeline = ParallelRecord::Pipeline{{}, 0.25};
  const ResultsFile tp = run_with_engine(par);
  const std::string html = communication_section({{"run", "#000", &tp}});
  CHECK_THAT(html, Catch::Contains("TP 2 x PP 2 x EP 1"));
  // Two repetitions of 10 steps: 80 all-reduces over 20 steps.
  CHECK_THAT(html, Catch::Contains("<td>TP/EP group: all_reduce</td><td class=\"num\">4</td>"
                                   "<td class=\"num\">400</td><td class=\"num\">2</td>"));
  CHECK_THAT(html, Catch::Contains("plan &amp; pipeline: send"));
  CHECK_THAT(html, Catch::Contains("bubble (mean over stages): 0.25"));

  const ResultsFile single = run_with_engine(std::nullopt);
  CHECK_THAT(communication_section({{"run", "#000", &single}}),
             Catch::Contains("no communication recorded"));
}

}  // namespace
}  // namespace infergate
