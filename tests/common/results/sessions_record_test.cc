// The repetition's "sessions" section: what the writer writes, the reader reads back to the same
// JSON, and a value of the wrong type is refused with its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/sessions_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

SessionsRecord sessions(bool cut) {
  SessionsRecord s;
  s.completed = 7;
  s.cut = cut ? 1 : 0;
  if (cut) s.cut_reason = "the target gave no token ids";
  s.turns.push_back({1, 8, {12.5, 30.25, 14.0}, 120.5, 0.0});
  s.turns.push_back({2, 7, {0, 0, 0}, 250.0, 0.75});
  return s;
}

json read_back(const json& j) {
  return to_json(read_sessions_record(SectionReader(j, "r.json", "$.sessions")));
}

}  // namespace

TEST_CASE("a sessions record reads back to the JSON it was written as") {
  for (const bool cut : {true, false}) {
    INFO("cut: " << cut);
    const json written = to_json(sessions(cut));
    CHECK(written.contains("cut_reason") == cut);
    CHECK(read_back(written).dump() == written.dump());  // dump: integers stay integers
  }
}

TEST_CASE("a sessions record is written in the results file's shape") {
  SessionsRecord s;
  s.completed = 2;
  s.turns.push_back({1, 2, {1.5, 2.0, 1.75}, 10.0, 0.5});
  CHECK(to_json(s).dump() ==
        R"({"completed":2,"cut":0,"turns":[{"input_tokens_mean":10.0,)"
        R"("prefix_cache_hit_rate":0.5,"requests":2,"ttft_ms":{"mean":1.75,"p50":1.5,"p95":2.0},)"
        R"("turn":1}]})");
}

TEST_CASE("a sessions record of the wrong type is refused with its path") {
  json j = to_json(sessions(true));
  j["turns"][1]["ttft_ms"]["p95"] = "slow";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("r.json: $.sessions.turns[1].ttft_ms.p95") &&
                                      Catch::Contains("expected a number, got string"));
  j = to_json(sessions(true));
  j["cut_reason"] = 3;
  CHECK_THROWS_AS(read_back(j), ResultsError);
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.sessions.cut_reason"));
  j = to_json(sessions(true));
  j.erase("completed");
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.sessions.completed"));
}
