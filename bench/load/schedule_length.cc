#include "bench/load/schedule_length.h"

#include <cstdio>
#include <string>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"

namespace infergate {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

void check_rate(const Workload& w, const LoadSpec& load, const std::string& path) {
  const double expected_s = open_loop_expected_s(load);
  if (expected_s <= kMaxDurationS) return;
  const int64_t arrivals = int64_t(load.num_requests) + load.warmup_requests;
  throw WorkloadError::out_of_range(w.source_path, path, number(load.rate),
                                    "the open loop's " + std::to_string(arrivals) +
                                        " requests at " + number(load.rate) +
                                        " req/s would take about " + number(expected_s) +
                                        " s; a run may last at most " + number(kMaxDurationS) +
                                        " s (as load.duration_s): raise the rate, or ask for fewer "
                                        "requests or for load.duration_s instead");
}

}  // namespace

double open_loop_expected_s(const LoadSpec& load) {
  if (load.mode != LoadMode::kOpen || load.ramp || load.num_requests <= 0 || !(load.rate > 0))
    return 0;
  // The first request goes at once; each of the others waits a mean gap of 1 / rate.
  return double(int64_t(load.num_requests) + load.warmup_requests - 1) / load.rate;
}

void check_open_loop_length(const Workload& w) {
  if (!w.sweep || w.sweep->field != "load.rate") return check_rate(w, w.load, "$.load.rate");
  for (size_t i = 0; i < w.sweep->values.size(); ++i) {
    LoadSpec load = w.load;
    load.rate = w.sweep->values[i];
    check_rate(w, load, "$.sweep.values[" + std::to_string(i) + "]");
  }
}

void check_session_warmup(const Workload& w, const std::vector<BenchSession>& sessions) {
  int64_t turns = 0;
  for (const BenchSession& s : sessions) turns += int64_t(s.turns.size());
  if (w.load.warmup_requests < turns) return;
  throw WorkloadError::out_of_range(
      w.source_path, "$.load.warmup_requests", std::to_string(w.load.warmup_requests),
      "must be less than the sessions' " + std::to_string(turns) +
          " turns in all: each turn is one request and the first warmup_requests are not "
          "measured, so nothing would be");
}

}  // namespace infergate
