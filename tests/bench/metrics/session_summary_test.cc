// The "sessions" section from a run's records: per turn over the measured requests, TTFT from
// the scheduled send, written in the results file's shape (docs/results-schema.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/metrics/session_summary.h"

using namespace infergate;

namespace {

constexpr int64_t kMs = 1'000'000;  // ns

RequestRecord turn(int k, int64_t ttft_ms, int input, int cached) {
  RequestRecord r;
  r.session = 0;
  r.turn = k;
  r.scheduled_ns = 1000 * kMs;
  r.sent_ns = r.scheduled_ns;
  r.first_token_ns = ttft_ms > 0 ? r.scheduled_ns + ttft_ms * kMs : 0;
  r.finished_ns = r.scheduled_ns + 100 * kMs;
  r.input_tokens = input;
  r.cached_tokens = cached;
  return r;
}

}  // namespace

TEST_CASE("sessions are summarized turn by turn over the measured requests") {
  DriverResult run;
  run.records = {turn(1, 4, 100, 0), turn(1, 4, 60, 0), turn(2, 8, 200, 150)};
  run.records.push_back(turn(2, 0, 40, 10));
  run.records.back().status = RequestStatus::kError;  // counted, no TTFT
  run.records.push_back(turn(1, 50, 100, 0));
  run.records.back().warmup = true;             // left out
  run.records.push_back(turn(-1, 50, 100, 0));  // not a session's turn
  run.sessions_completed = 1;
  run.sessions_cut = 1;
  run.sessions_cut_reason = "the target gave no token ids";
  const SessionsRecord s = session_summary(run);
  REQUIRE(s.turns.size() == 2);
  CHECK(s.turns[0].ttft_ms.p95 == Approx(4));
  CHECK(s.turns[1].requests == 2);
  CHECK(s.turns[1].input_tokens_mean == 120);
  CHECK(s.turns[1].prefix_cache_hit_rate == Approx(160.0 / 240));
  nlohmann::json j = to_json(s);
  CHECK(j["turns"][1]["ttft_ms"]["mean"].get<double>() == Approx(8));
  j["turns"][0].erase("ttft_ms");
  j["turns"][1].erase("ttft_ms");
  j["turns"][1].erase("prefix_cache_hit_rate");
  CHECK(j.dump() ==
        R"({"completed":1,"cut":1,"cut_reason":"the target gave no token ids",)"
        R"("turns":[{"input_tokens_mean":80.0,"prefix_cache_hit_rate":0.0,)"
        R"("requests":2,"turn":1},{"input_tokens_mean":120.0,"requests":2,"turn":2}]})");
  run.sessions_cut_reason.clear();
  CHECK_FALSE(to_json(session_summary(run)).contains("cut_reason"));
}
