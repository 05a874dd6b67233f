// The engine section and the timeline read back through their one reader: what the writer
// wrote comes back field for field, and a bad field is named by its JSON path.
#include <catch2/catch.hpp>

#include "common/results/recorded_request.h"
#include "common/results/target_stats.h"
#include "common/results/timeline_sample.h"

namespace infergate {
namespace {

EngineStatsRecord full_engine() {
  EngineStatsRecord e;
  e.weights_bytes = 1000, e.kv_cache_bytes = 200, e.workspace_bytes = 30;
  e.memory_total_bytes = 1230, e.kv_usage = 0.5, e.num_kv_blocks = 64, e.num_running = 2;
  e.num_steps = 9, e.schedule_ms = 1, e.execute_ms = 25, e.injected_delay_ms = 5;
  e.spec_decode = EngineStatsRecord::SpecDecode{10, 40, 25, {9, 8, 5, 3}, "ngram", 28.5, 2.25};
  EngineStatsRecord::Cpu& cpu = e.cpu.emplace();
  cpu.total_ms = 30, cpu.decode_steps_ms = 20, cpu.decode_steps_tokens = 80;
  cpu.decode_cost = EngineStatsRecord::Cpu::Line{0.1, 0.02};
  cpu.hardware = EngineStatsRecord::Cpu::HardwareCounts{1000, 2000, 500, 900, 80};
  ParallelRecord& p = e.parallel.emplace();
  p.tensor_parallel = 2, p.pipeline_parallel = 2, p.steps = 9;
  p.ranks =
      ParallelRecord::Ranks{4, 2, {{"send", {3, 96, 0.001}}}, {{"all_reduce", {40, 4000, 0.02}}}};
  p.pipeline = ParallelRecord::Pipeline{{{0, 1.0, 2.0, 0.5}, {1, 1.5, 2.0, 0.25}}, 0.375};
  p.experts = ParallelRecord::Experts{{10, 30}, 1.5, 0.5};
  return e;
}

RouterRecord final_router() {
  RouterRecord r;
  r.policy = "prefix-aware";
  r.replicas = {{"http://127.0.0.1:1", 10, 9, 1, 0, 0.4, 0, false}};
  r.prefix_hit_rate_achieved = 0.4, r.prefix_hit_rate_oracle = 0.5, r.retries = 2;
  r.faults = {{0, 4242, 500, 3, ""}, {1, 0, 900, 0, "no such replica"}};
  RouterRecord::Disaggregation& d = r.disaggregation.emplace();
  d.prefill = {{"http://127.0.0.1:2", 5, 5, 0, 0, 0, 0, false}};
  d.prefills_exported = 5, d.reads = 5, d.kv_bytes = 1 << 20, d.read_ms_p95 = 1.5;
  return r;
}

nlohmann::json round_trip(const TargetStats& s) {
  const nlohmann::json j = to_json(s);
  return to_json(read_target_stats(SectionReader(j, "r.json", "$.engine")));
}

TEST_CASE("an engine's statistics read back as written, parallel layout and CPU included") {
  TargetStats s;
  s.engine = full_engine();
  CHECK(round_trip(s) == to_json(s));
  s.engine->cpu->hardware.reset();
  s.engine->cpu->hardware_unavailable = "perf_event_paranoid is 3";
  s.engine->cpu->decode_cost.reset();
  CHECK(round_trip(s) == to_json(s));
  s.engine = EngineStatsRecord{};  // one rank, no speculation, no CPU time
  CHECK(round_trip(s) == to_json(s));
}

TEST_CASE("a simulated cluster's workers read back with their roles") {
  ParallelRecord worker;
  worker.simulated = ParallelRecord::Simulated{2, 1.5, 0.3, 0.2, {{"attention", 0.7}}};
  TargetStats s;
  s.engine.emplace().parallel = worker;
  worker.role = "prefill";
  s.engine->parallel->workers = {worker, worker};
  s.engine->parallel->workers[1].role = "decode";
  const nlohmann::json j = to_json(s);
  CHECK(j["parallel"]["workers"][1]["role"] == "decode");
  CHECK(j["parallel"]["simulated"] == true);
  CHECK(round_trip(s) == j);
}

TEST_CASE("an HTTP client's and a router's statistics read back as written") {
  TargetStats s;
  HttpClientRecord& c = s.http_client.emplace();
  c.requests = 10, c.ok = 4, c.by_http_status = {{503, 2}}, c.connect = 1;
  c.mismatch_examples = {"usage says 5 tokens"};
  c.prompt_checked = 9, c.prompt_mismatches = 1;
  c.prompt_mismatch_examples = {"request 3: 12 prompt tokens counted here, usage 13"};
  s.router = final_router();
  CHECK(round_trip(s) == to_json(s));
  // Written before prompt counts were checked: none checked.
  nlohmann::json old = to_json(s);
  for (const char* key : {"prompt_checked", "prompt_mismatches", "prompt_mismatch_examples"}) {
    old["http_client"]["usage"].erase(key);
  }
  const TargetStats read = read_target_stats(SectionReader(old, "r.json", "$.engine"));
  CHECK(read.http_client->prompt_checked == 0);
  CHECK(read.http_client->prompt_mismatch_examples.empty());
  RouterRecord live;  // a timeline sample's: url, in flight and health only
  live.live = true;
  live.policy = "least-outstanding";
  live.replicas = {{"http://127.0.0.1:1", 0, 0, 0, 0, 0, 3, true}};
  live.disaggregation.emplace().prefill = live.replicas;
  s.router = live;
  CHECK(round_trip(s) == to_json(s));
}

TEST_CASE("a bad engine field is named by its JSON path") {
  TargetStats s;
  s.engine = full_engine();
  nlohmann::json j = to_json(s);
  j["parallel"]["comm"]["group"]["all_reduce"]["calls"] = "many";
  CHECK_THROWS_WITH(read_target_stats(SectionReader(j, "r.json", "$.engine")),
                    "r.json: $.engine.parallel.comm.group.all_reduce.calls: expected a number, "
                    "got string");
  j = to_json(s);
  j["step_time_ms"].erase("execute");
  CHECK_THROWS_WITH(read_target_stats(SectionReader(j, "r.json", "$.engine")),
                    "r.json: $.engine.step_time_ms.execute: expected a number, got null");
  j = to_json(TargetStats{});
  j["http_client"] = {{"requests", 1.5}};
  CHECK_THROWS_WITH(read_target_stats(SectionReader(j, "r.json", "$.engine")),
                    Catch::Contains("$.engine.http_client.requests: 1.5 is not a whole number"));
}

TEST_CASE("timeline samples read back with their target's statistics or its error") {
  TimelineSample measured{12.5, 1e8, 97, std::nullopt, 40, TargetStats{}, ""};
  measured.target->engine = full_engine();
  TimelineSample failed{25, 1e8, 50, std::nullopt, std::nullopt, std::nullopt, "engine gone"};
  TimelineSample simulated;  // virtual clock: no process readings
  simulated.t_ms = 30;
  simulated.target.emplace().engine = EngineStatsRecord{};
  const std::vector<TimelineSample> timeline = {measured, failed, simulated};
  const nlohmann::json j = timeline_to_json(timeline);
  CHECK_FALSE(j[2].contains("rss_bytes"));
  CHECK(j[1]["engine"] == nlohmann::json({{"enrich_error", "engine gone"}}));
  CHECK(timeline_to_json(read_timeline(SectionReader(j, "r.json", "$.timeline"))) == j);
  nlohmann::json bad = j;
  bad[1]["t_ms"] = nullptr;
  CHECK_THROWS_WITH(read_timeline(SectionReader(bad, "r.json", "$.timeline")),
                    "r.json: $.timeline[1].t_ms: expected a number, got null");
}

TEST_CASE("request records read back as written, a disaggregated one's handoff included") {
  RecordedRequest ok;
  ok.index = 3, ok.scheduled_ms = 1, ok.sent_ms = 1.1, ok.first_token_ms = 5, ok.finished_ms = 9;
  ok.token_times_ms = {5, 7, 9}, ok.input_tokens = 32, ok.output_tokens = 3;
  ok.kv_transfer = KvTransferRow{2.5, 1, "", 4, 12, 1 << 16, 0.8, 1.2, "ucx: timed out"};
  ok.session = 2, ok.turn = 1;
  RecordedRequest failed;
  failed.status = "error", failed.error = "http status 503", failed.warmup = true;
  const nlohmann::json j = requests_to_json({ok, failed});
  CHECK(j[1]["first_token_ms"].is_null());
  CHECK_FALSE(j[1].contains("session"));
  CHECK(requests_to_json(requests_from_json(j)) == j);
}

}  // namespace
}  // namespace infergate
