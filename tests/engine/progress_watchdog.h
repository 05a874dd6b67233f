// A progress watchdog for engine tests. A step that schedules nothing and finishes nothing
// while requests are unfinished is a hang: the engine's callers (generate, the harness
// target, the server) would step it forever. The watchdog fails the test at that step, and
// bounds the steps of a whole run, so a regression fails fast instead of timing out.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/engine.h"

namespace infergate::testing {

// One engine step, failing the test when it made no progress.
inline std::vector<RequestOutput> watched_step(Engine& engine) {
  const int64_t steps_before = engine.stats().num_steps;
  std::vector<RequestOutput> outputs = engine.step();
  const EngineStats after = engine.stats();
  if (after.num_steps == steps_before && outputs.empty() && engine.has_unfinished()) {
    FAIL("engine step made no progress: nothing scheduled or finished with "
         << after.num_waiting << " request(s) waiting and " << after.num_running << " running");
  }
  return outputs;
}

struct WatchedResult {
  std::vector<int32_t> token_ids;
  FinishReason finish_reason = FinishReason::kNone;
  std::string error;
  int num_preemptions = 0;
};

// Steps until nothing is unfinished (at most max_steps), collecting each request's result.
inline std::unordered_map<RequestId, WatchedResult> run_watched(Engine& engine,
                                                                int64_t max_steps = 100000) {
  std::unordered_map<RequestId, WatchedResult> results;
  for (int64_t step = 0; engine.has_unfinished(); ++step) {
    if (step == max_steps) FAIL("the engine did not finish within " << max_steps << " steps");
    for (const RequestOutput& o : watched_step(engine)) {
      WatchedResult& r = results[o.id];
      r.token_ids.insert(r.token_ids.end(), o.token_ids.begin(), o.token_ids.end());
      r.num_preemptions = o.num_preemptions;
      if (o.finished) r.finish_reason = o.finish_reason, r.error = o.error;
    }
  }
  return results;
}

// Engine::generate under the watchdog: tokens in prompt order.
inline std::vector<WatchedResult> generate_watched(Engine& engine,
                                                   const std::vector<std::vector<int32_t>>& prompts,
                                                   const SamplingParams& params) {
  static int64_t counter = 0;
  std::vector<RequestId> ids;
  for (const auto& prompt : prompts) {
    ids.push_back("watched-" + std::to_string(counter++));
    engine.add_request(ids.back(), prompt, params);
  }
  auto results = run_watched(engine);
  std::vector<WatchedResult> ordered;
  for (const RequestId& id : ids) ordered.push_back(results[id]);
  return ordered;
}

}  // namespace infergate::testing
