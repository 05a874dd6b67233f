// The load driver against real targets: the zero-cost echo and the in-process engine.
#include <catch2/catch.hpp>
#include <cmath>

#include "bench/driver/load_driver.h"
#include "bench/metrics/harness_lag.h"
#include "bench/metrics/summarize.h"
#include "bench/targets/echo_target.h"
#include "bench/targets/engine_target.h"
#include "engine/model/synthetic_model.h"

using namespace infergate;

namespace {

std::vector<BenchRequest> fixed_requests(int n, int prompt_len, int max_tokens) {
  std::vector<BenchRequest> out;
  for (int i = 0; i < n; ++i) {
    BenchRequest r;
    r.prompt.assign(size_t(prompt_len), int32_t(5 + i % 100));
    r.prompt[0] = 1;
    r.max_tokens = max_tokens;
    out.push_back(r);
  }
  return out;
}

std::unique_ptr<EngineTarget> small_engine_target(int max_model_len = 256) {
  ModelConfig c = preset_config("tiny");
  c.num_layers = 2;
  c.vocab_size = 512;
  c.max_position_embeddings = max_model_len;
  EngineConfig e;
  e.num_threads = 1;
  return std::make_unique<EngineTarget>(std::make_unique<Engine>(e, make_synthetic_model(c, 3)));
}

}  // namespace

TEST_CASE("open loop sends on schedule and records every token", "[bench][driver]") {
  EchoTarget echo;
  DriverOptions o;
  o.load.mode = LoadMode::kOpen;
  o.load.arrival = "constant";
  o.load.rate = 2000;
  o.load.num_requests = 200;
  o.load.warmup_requests = 10;
  const DriverResult r = run_load(echo, fixed_requests(50, 8, 4), o);
  REQUIRE_FALSE(r.incomplete);
  REQUIRE(r.records.size() == 210u);
  for (size_t i = 0; i < r.records.size(); ++i) {
    const RequestRecord& rec = r.records[i];
    REQUIRE(rec.index == i);
    REQUIRE(rec.warmup == (i < 10));
    REQUIRE(rec.output_tokens == 4);
    REQUIRE(rec.status == RequestStatus::kOk);
    REQUIRE(rec.sent_ns >= rec.scheduled_ns);
    // Constant arrivals: exactly 0.5 ms apart on the schedule.
    REQUIRE(rec.scheduled_ns - r.records[0].scheduled_ns == int64_t(i) * 500'000);
  }
  const RunSummary s = summarize_run(r.records, {});
  REQUIRE(s.num_requests == 200);
  REQUIRE(s.request_throughput_rps == Approx(2000).epsilon(0.05));
}

TEST_CASE("closed loop keeps at most N requests in flight", "[bench][driver]") {
  EchoTarget echo(/*token_delay_us=*/200);
  DriverOptions o;
  o.load.mode = LoadMode::kClosed;
  o.load.concurrency = 3;
  o.load.num_requests = 30;
  const DriverResult r = run_load(echo, fixed_requests(5, 4, 3), o);
  REQUIRE(r.records.size() == 30u);
  const RunSummary s = summarize_run(r.records, {});
  REQUIRE(s.peak_concurrency <= 3);
  REQUIRE(s.num_completed == 30);
  // A user's next request is scheduled the moment one of the users' requests ended.
  std::vector<int64_t> ends;
  for (const RequestRecord& rec : r.records) ends.push_back(rec.finished_ns);
  for (size_t i = 3; i < r.records.size(); ++i) {
    REQUIRE(std::find(ends.begin(), ends.end(), r.records[i].scheduled_ns) != ends.end());
  }
}

TEST_CASE("engine target serves a run, and refused requests are recorded as errors",
          "[bench][driver]") {
  auto target = small_engine_target();
  std::vector<BenchRequest> requests = fixed_requests(6, 20, 8);
  requests[3].prompt.assign(300, 7);  // longer than max_model_len: the engine refuses it
  DriverOptions o;
  o.load.mode = LoadMode::kClosed;
  o.load.concurrency = 4;
  o.load.num_requests = 6;
  const DriverResult r = run_load(*target, requests, o);
  REQUIRE(r.records.size() == 6u);
  for (const RequestRecord& rec : r.records) {
    if (rec.index == 3) {
      REQUIRE(rec.status == RequestStatus::kError);
      REQUIRE_THAT(rec.error, Catch::Contains("max_model_len"));
    } else {
      REQUIRE(rec.status == RequestStatus::kOk);
      REQUIRE(rec.output_tokens == 8);
      REQUIRE(rec.first_token_ns > rec.sent_ns);
      REQUIRE(rec.finished_ns == rec.token_times_ns.back());
    }
  }
  REQUIRE(target->stats().engine->kv_usage == 0.0);
}

TEST_CASE("a stop request ends the run early, aborting what is in flight", "[bench][driver]") {
  auto target = small_engine_target();
  std::atomic<bool> stop{false};
  DriverOptions o;
  o.load.mode = LoadMode::kOpen;
  o.load.arrival = "constant";
  o.load.rate = 50;
  o.load.num_requests = 1000;
  o.stop = &stop;
  o.on_progress = [&](const DriverProgress& p) {
    if (p.elapsed_ns > 300'000'000) stop = true;  // as Ctrl-C would, 0.3 s in
  };
  const DriverResult r = run_load(*target, fixed_requests(4, 16, 200), o);
  REQUIRE(r.incomplete);
  REQUIRE(r.records.size() < 1000u);
  int aborted = 0;
  for (const RequestRecord& rec : r.records) {
    REQUIRE(rec.finished_ns > 0);  // nothing left open
    aborted += rec.status == RequestStatus::kAborted;
  }
  REQUIRE(aborted > 0);
}

TEST_CASE("harness-limited means the send lag grew, not that it was ever high", "[bench][driver]") {
  std::vector<RequestRecord> steady, falling_behind;
  for (int i = 0; i < 100; ++i) {
    RequestRecord r;
    r.index = uint64_t(i);
    r.scheduled_ns = int64_t(i) * 1'000'000;
    r.sent_ns = r.scheduled_ns + (i % 17 == 0 ? 5'000'000 : 20'000);  // isolated late sends
    steady.push_back(r);
    r.sent_ns = r.scheduled_ns + int64_t(i) * 50'000;  // 50 us later every request
    falling_behind.push_back(r);
  }
  REQUIRE_FALSE(send_lag_grew(steady));
  REQUIRE(send_lag_grew(falling_behind));
}

namespace {

LoadSpec ramp_load(const std::string& mode, double from, double to, int stages, double stage_s) {
  LoadSpec l;
  l.mode = load_mode_from_name(mode);
  l.arrival = "constant";
  RampSpec r;
  r.from = from;
  r.to = to;
  r.stages = stages;
  r.stage_s = stage_s;
  l.ramp = r;
  return l;
}

std::vector<int> sent_per_stage(const DriverResult& r, double stage_s, int stages) {
  std::vector<int> sent(size_t(stages), 0);
  for (const RequestRecord& rec : r.records) {
    ++sent[size_t((rec.scheduled_ns - r.start_ns) / std::llround(stage_s * 1e9))];
  }
  return sent;
}

}  // namespace

TEST_CASE("an open ramp offers each stage's rate for its length", "[bench][driver][ramp]") {
  EchoTarget echo;
  DriverOptions o;
  o.load = ramp_load("open", 100, 300, 3, 0.2);  // 100, 200, 300 requests/s
  const DriverResult r = run_load(echo, fixed_requests(8, 8, 2), o);
  REQUIRE_FALSE(r.incomplete);
  CHECK(sent_per_stage(r, 0.2, 3) == std::vector<int>{20, 40, 60});
  CHECK(r.saturated_stage == -1);
  CHECK(r.stage_judgements.empty());  // no stop_when: nothing judged
}

TEST_CASE("a closed ramp adds users stage by stage", "[bench][driver][ramp]") {
  EchoTarget echo(/*token_delay_us=*/2000);  // 4 tokens: about 8 ms a request
  DriverOptions o;
  o.load = ramp_load("closed", 1, 3, 3, 0.3);
  const DriverResult r = run_load(echo, fixed_requests(8, 8, 4), o);
  // In flight at once: at most the users of the stage a request was scheduled in.
  const RunSummary s = summarize_run(r.records, {});
  CHECK(s.peak_concurrency <= 3);
  const std::vector<int> sent = sent_per_stage(r, 0.3, 3);
  CHECK(sent[1] > sent[0] * 3 / 2);  // two users send about twice as often as one
  CHECK(sent[2] > sent[1]);
}

TEST_CASE("a ramp stops at the stage that saturates the target", "[bench][driver][ramp]") {
  std::unique_ptr<EngineTarget> engine = small_engine_target();
  DriverOptions o;
  // The CPU engine answers some hundreds of these a second: the last stages cannot be met.
  o.load = ramp_load("open", 20, 5000, 4, 0.5);
  o.load.stop_when.ttft_p95_ms = 100;
  const DriverResult r = run_load(*engine, fixed_requests(32, 32, 16), o);
  REQUIRE(r.saturated_stage >= 0);
  CHECK(r.saturated_stage < 3);
  CHECK_FALSE(r.incomplete);  // a saturation stop is the plan, not an interruption
  REQUIRE(r.stage_judgements.size() == size_t(r.saturated_stage) + 1);
  const StageJudgement& j = r.stage_judgements.back();
  CHECK(j.saturated);
  CHECK(j.ttft_p95_ms > 100);
  // Nothing was scheduled after the stage that saturated (plus the 100 ms of judging).
  const double stop_s = 0.5 * (r.saturated_stage + 1) + 0.2;
  for (const RequestRecord& rec : r.records) {
    CHECK(double(rec.scheduled_ns - r.start_ns) * 1e-9 < stop_s);
  }
  // Every request sent was answered: the load stopped, the target drained.
  CHECK(summarize_run(r.records, {}).num_completed == int64_t(r.records.size()));
}

TEST_CASE("a ramp the target keeps up with is judged stage by stage and not stopped",
          "[bench][driver][ramp]") {
  EchoTarget echo;
  DriverOptions o;
  o.load = ramp_load("open", 50, 100, 3, 0.2);
  o.load.stop_when.ttft_p95_ms = 1000;
  o.load.stop_when.error_share = 0.5;
  const DriverResult r = run_load(echo, fixed_requests(8, 8, 2), o);
  CHECK(r.saturated_stage == -1);
  REQUIRE(r.stage_judgements.size() == 3);
  CHECK(r.stage_judgements[0].requests == 10);
  CHECK(r.stage_judgements[2].requests == 20);
  for (const StageJudgement& j : r.stage_judgements) CHECK_FALSE(j.saturated);
}
