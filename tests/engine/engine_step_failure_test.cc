// A step whose execution throws ends that batch's requests with an error and leaves the engine
// serving (docs/server.md, "A failing engine step"); a failure after the scheduler's update
// cannot be contained and says so.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "engine/core/engine.h"
#include "progress_watchdog.h"
#include "test_models.h"

using namespace infergate;

namespace {

std::unique_ptr<Engine> failing_engine(int64_t every, bool fatal) {
  EngineConfig c;
  c.num_threads = 1;
  c.debug_inject_step_error_every = every;
  c.debug_inject_step_error_fatal = fatal;
  return std::make_unique<Engine>(c, make_synthetic_model(testing::small_test_config(), 1));
}

}  // namespace

TEST_CASE("a failing step ends its batch with an error, frees its blocks and the engine goes on",
          "[engine]") {
  auto owned = failing_engine(3, false);
  Engine& engine = *owned;
  const SamplingParams p = testing::fixed_tokens(6);
  engine.add_request("a", {1, 2, 3}, p);
  engine.add_request("b", {4, 5, 6, 7}, p);
  std::map<std::string, RequestOutput> ends;
  for (int step = 1; step <= 3; ++step) {
    for (const RequestOutput& o : testing::watched_step(engine)) {
      if (o.finished) ends[o.id] = o;
    }
  }
  // Step 3 (the third batch executed) threw: both requests were in it.
  REQUIRE(ends.size() == 2);
  for (const auto& [id, o] : ends) {
    INFO(id);
    CHECK(o.finish_reason == FinishReason::kError);
    CHECK(o.step_failed);
    CHECK(o.error.find("injected step error") != std::string::npos);
  }
  CHECK_FALSE(engine.has_unfinished());
  engine.check_invariants();
  CHECK(engine.stats().kv_usage == 0);  // every block of the failed batch went back

  // Later requests are served (steps 4 and 5 run; 6 fails again, then 7 and 8).
  engine.add_request("c", {1, 2, 3}, testing::fixed_tokens(2));
  const auto results = testing::run_watched(engine);
  REQUIRE(results.at("c").finish_reason == FinishReason::kLength);
  CHECK(results.at("c").token_ids.size() == 2u);
  engine.check_invariants();
}

TEST_CASE("a failure after the scheduler's update is an EngineFailure naming it", "[engine]") {
  auto owned = failing_engine(2, true);
  Engine& engine = *owned;
  engine.add_request("a", {1, 2, 3}, testing::fixed_tokens(8));
  testing::watched_step(engine);
  REQUIRE_THROWS_AS(engine.step(), EngineFailure);
}

TEST_CASE("a negative step error period is refused naming its key", "[engine]") {
  EngineConfig c;
  c.debug_inject_step_error_every = -1;
  REQUIRE_THROWS_WITH(c.validate(), Catch::Contains("debug.inject_step_error_every"));
}
