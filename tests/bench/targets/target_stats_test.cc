// What each target reports, typed, and the JSON the results file records from it
// (docs/results-schema.md, "Engine statistics").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "bench/targets/echo_target.h"
#include "bench/targets/engine_target.h"
#include "common/results/target_stats.h"

namespace infergate {

TEST_CASE("an engine's statistics are recorded in the results file's units and keys") {
  EngineStats s;
  s.memory.weights_bytes = 1000, s.memory.kv_cache_bytes = 200, s.memory.workspace_bytes = 30;
  s.kv_usage = 0.5, s.num_kv_blocks = 64, s.num_running = 2, s.num_waiting = 1;
  s.num_preemptions = 3, s.prefix_cache = {40, 10}, s.num_steps = 9, s.last_step_tokens = 4;
  s.total_scheduled_tokens = 90, s.num_generated_tokens = 80;
  s.schedule_ns = 1'000'000, s.execute_ns = 25'000'000, s.sample_ns = 2'000'000;
  s.update_ns = 500'000, s.injected_delay_ns = 5'000'000;
  const EngineStatsRecord r = engine_stats_record(s);
  CHECK(r.memory_total_bytes == 1230);
  CHECK(r.prefix_cache_hit_rate() == 0.25);
  CHECK(r.execute_ms == 25.0);

  TargetStats stats;
  stats.engine = r;
  const nlohmann::json j = to_json(stats);
  const std::set<std::string> documented = {
      "weights_bytes",    "kv_cache_bytes",         "workspace_bytes",      "memory_total_bytes",
      "kv_usage",         "num_kv_blocks",          "num_running",          "num_waiting",
      "num_preemptions",  "prefix_cache_queries",   "prefix_cache_hits",    "num_steps",
      "last_step_tokens", "total_scheduled_tokens", "num_generated_tokens", "step_time_ms"};
  std::set<std::string> written;
  for (const auto& [key, value] : j.items()) written.insert(key);
  CHECK(written == documented);  // no "parallel" on one rank, no "spec_decode" without it
  CHECK(j["step_time_ms"] == nlohmann::json({{"schedule", 1.0},
                                             {"execute", 25.0},
                                             {"sample", 2.0},
                                             {"update", 0.5},
                                             {"injected_delay", 5.0}}));
  CHECK(j["prefix_cache_hits"] == 10);

  stats.engine->parallel.emplace().tensor_parallel = 2;
  CHECK(to_json(stats)["parallel"]["tensor_parallel"] == 2);

  s.speculative = true;  // 10 verifications of 40 draft tokens, 25 accepted
  s.spec_num_drafts = 10, s.spec_num_draft_tokens = 40, s.spec_num_accepted_tokens = 25;
  s.spec_accepted_per_position = {9, 8, 5, 3};
  s.speculative_method = "draft_model";
  s.spec_propose_ns = 28'500'000;  // the steps took 28.5 ms besides: half the time drafting
  s.num_sampling_passes = 20, s.num_generated_tokens = 45;
  stats.engine = engine_stats_record(s);
  const nlohmann::json spec = to_json(stats)["spec_decode"];
  CHECK(spec["acceptance_rate"] == 0.625);
  CHECK(spec["mean_acceptance_length"] == 3.5);
  CHECK(spec["accepted_per_position"] == nlohmann::json({9, 8, 5, 3}));
  CHECK(spec["method"] == "draft_model");
  CHECK(spec["propose_ms"] == 28.5);
  CHECK(spec["draft_time_share"] == Approx(0.5));
  CHECK(spec["tokens_per_target_pass"] == 2.25);
}

TEST_CASE("an HTTP client's statistics count every failure kind among the errors") {
  HttpClientRecord c;
  c.requests = 10, c.ok = 4, c.aborted = 1;
  c.by_http_status = {{503, 2}, {400, 1}};
  c.connect = 1, c.timeout = 1;
  c.mismatch_examples = {"usage says 5 tokens, the stream carried 4"};
  CHECK(c.errors() == 5);
  TargetStats stats;
  stats.http_client = c;
  const nlohmann::json j = to_json(stats);
  CHECK(j.size() == 1);
  CHECK(j["http_client"]["errors"] == 5);
  CHECK(j["http_client"]["errors_by_kind"]["http_status"]["503"] == 2);
  CHECK(j["http_client"]["usage"]["mismatch_examples"].size() == 1);
}

TEST_CASE("a target without statistics records an empty object") {
  const EchoTarget echo(0);
  const TargetStats stats = echo.stats();
  CHECK_FALSE(stats.engine);
  CHECK_FALSE(stats.http_client);
  CHECK(to_json(stats) == nlohmann::json::object());
}

}  // namespace infergate
