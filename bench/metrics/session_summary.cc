#include "bench/metrics/session_summary.h"

#include <algorithm>
#include <map>

#include "common/results/request_samples.h"

namespace infergate {

namespace {

struct TurnFigures {
  std::vector<double> ttft_ms;
  int64_t requests = 0, input_tokens = 0, cached_tokens = 0;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return linear_percentile(v, p);
}

SessionTurnRecord turn_record(int turn, const TurnFigures& t) {
  double sum = 0;
  for (double v : t.ttft_ms) sum += v;
  SessionTurnRecord out;
  out.turn = turn;
  out.requests = t.requests;
  out.ttft_ms = {percentile(t.ttft_ms, 50), percentile(t.ttft_ms, 95),
                 t.ttft_ms.empty() ? 0 : sum / double(t.ttft_ms.size())};
  out.input_tokens_mean = double(t.input_tokens) / double(t.requests);
  out.prefix_cache_hit_rate =
      t.input_tokens > 0 ? double(t.cached_tokens) / double(t.input_tokens) : 0;
  return out;
}

}  // namespace

SessionsRecord session_summary(const DriverResult& run) {
  std::map<int, TurnFigures> turns;
  for (const RequestRecord& r : run.records) {
    if (r.turn < 1 || r.warmup) continue;
    TurnFigures& t = turns[r.turn];
    ++t.requests;
    t.input_tokens += r.input_tokens;
    t.cached_tokens += r.cached_tokens;
    if (r.status == RequestStatus::kOk && r.first_token_ns > 0) {
      t.ttft_ms.push_back(double(r.first_token_ns - r.scheduled_ns) * 1e-6);
    }
  }
  SessionsRecord out;
  out.completed = run.sessions_completed;
  out.cut = run.sessions_cut;
  if (!run.sessions_cut_reason.empty()) out.cut_reason = run.sessions_cut_reason;
  for (const auto& [k, t] : turns) out.turns.push_back(turn_record(k, t));
  return out;
}

}  // namespace infergate
