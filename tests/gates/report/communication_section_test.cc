#include "gates/report/communication_section.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

ResultsFile run_with_engine(const nlohmann::json& engine) {
  ResultsFile r;
  PointResult p;
  RepetitionResult rep;
  rep.engine = engine;
  p.repetitions = {rep, rep};
  r.points = {p};
  return r;
}

TEST_CASE("communication section: collectives per engine step, bubble and expert load") {
  const ResultsFile tp = run_with_engine(
      {{"parallel",
        {{"tensor_parallel", 2},
         {"pipeline_parallel", 2},
         {"expert_parallel", 1},
         {"steps", 10},
         {"comm",
          {{"group", {{"all_reduce", {{"calls", 40}, {"bytes", 4000}, {"seconds", 0.02}}}}},
           {"world", {{"send", {{"calls", 20}, {"bytes", 800}, {"seconds", 0.01}}}}}}},
         {"pipeline", {{"bubble_fraction", 0.25}}}}}});
  const std::string html = communication_section({{"run", "#000", &tp}});
  CHECK_THAT(html, Catch::Contains("TP 2 x PP 2 x EP 1"));
  // Two repetitions of 10 steps: 80 all-reduces over 20 steps.
  CHECK_THAT(html, Catch::Contains("<td>TP/EP group: all_reduce</td><td class=\"num\">4</td>"
                                   "<td class=\"num\">400</td><td class=\"num\">2</td>"));
  CHECK_THAT(html, Catch::Contains("plan &amp; pipeline: send"));
  CHECK_THAT(html, Catch::Contains("bubble (mean over stages): 0.25"));

  const ResultsFile single = run_with_engine({{"num_steps", 3}});
  CHECK_THAT(communication_section({{"run", "#000", &single}}),
             Catch::Contains("no communication recorded"));
}

}  // namespace
}  // namespace infergate
