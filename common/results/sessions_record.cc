#include "common/results/sessions_record.h"

namespace infergate {

namespace {

nlohmann::json turn_json(const SessionTurnRecord& t) {
  return {{"turn", t.turn},
          {"requests", t.requests},
          {"ttft_ms", {{"p50", t.ttft_ms.p50}, {"p95", t.ttft_ms.p95}, {"mean", t.ttft_ms.mean}}},
          {"input_tokens_mean", t.input_tokens_mean},
          {"prefix_cache_hit_rate", t.prefix_cache_hit_rate}};
}

SessionTurnRecord read_turn(const SectionReader& r) {
  const SectionReader ttft = r.object("ttft_ms");
  SessionTurnRecord t;
  t.turn = r.integer("turn");
  t.requests = r.integer("requests");
  t.ttft_ms = {ttft.number("p50"), ttft.number("p95"), ttft.number("mean")};
  t.input_tokens_mean = r.number("input_tokens_mean");
  t.prefix_cache_hit_rate = r.number("prefix_cache_hit_rate");
  return t;
}

}  // namespace

nlohmann::json to_json(const SessionsRecord& s) {
  nlohmann::json out = {
      {"completed", s.completed}, {"cut", s.cut}, {"turns", nlohmann::json::array()}};
  if (s.cut_reason) out["cut_reason"] = *s.cut_reason;
  for (const SessionTurnRecord& t : s.turns) out["turns"].push_back(turn_json(t));
  return out;
}

SessionsRecord read_sessions_record(const SectionReader& r) {
  SessionsRecord s;
  s.completed = r.integer("completed");
  s.cut = r.integer("cut");
  s.cut_reason = r.optional_text("cut_reason");
  for (const SectionReader& t : r.array("turns")) s.turns.push_back(read_turn(t));
  return s;
}

}  // namespace infergate
