#include "bench/metrics/summarize.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>

#include "bench/metrics/error_classes.h"
#include "common/results/request_samples.h"

namespace infergate {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;

double ms(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

// The latencies one ok request contributes, in ms; absent ones are NaN.
struct RequestLatencies {
  double ttft = NAN, tpot = NAN, e2e = NAN;
};

RequestLatencies latencies_of(const RequestRecord& r) {
  RequestLatencies l;
  if (r.first_token_ns != 0) l.ttft = ms(r.first_token_ns - r.scheduled_ns);
  if (r.finished_ns != 0) l.e2e = ms(r.finished_ns - r.scheduled_ns);
  if (r.output_tokens >= 2 && !std::isnan(l.ttft) && !std::isnan(l.e2e)) {
    l.tpot = (l.e2e - l.ttft) / (r.output_tokens - 1);
  }
  return l;
}

// A missing TTFT or E2E fails its SLO; a missing TPOT (one output token) meets it.
bool meets_slo(const RequestLatencies& l, const SloSpec& slo) {
  if (slo.ttft_ms && !(l.ttft <= *slo.ttft_ms)) return false;
  if (slo.tpot_ms && !std::isnan(l.tpot) && !(l.tpot <= *slo.tpot_ms)) return false;
  if (slo.e2e_ms && !(l.e2e <= *slo.e2e_ms)) return false;
  return true;
}

}  // namespace

double request_slo_ratio(const RequestRecord& r, const SloSpec& slo) {
  if (r.status != RequestStatus::kOk) return INFINITY;
  const RequestLatencies l = latencies_of(r);
  double worst = 0;
  // NaN (a missing TTFT or E2E) fails, as in meets_slo; a missing TPOT meets.
  const auto over = [&worst](double value, double bound) {
    worst = std::isnan(value) ? INFINITY : std::max(worst, value / bound);
  };
  if (slo.ttft_ms) over(l.ttft, *slo.ttft_ms);
  if (slo.tpot_ms && !std::isnan(l.tpot)) over(l.tpot, *slo.tpot_ms);
  if (slo.e2e_ms) over(l.e2e, *slo.e2e_ms);
  return worst;
}

namespace {

struct Window {
  int64_t begin_ns = 0, end_ns = 0;
  double seconds() const { return static_cast<double>(end_ns - begin_ns) / kNsPerS; }
};

// Earliest scheduled send to latest finish among the measured requests.
Window measured_window(const std::vector<const RequestRecord*>& measured) {
  Window w;
  if (measured.empty()) return w;
  w.begin_ns = measured.front()->scheduled_ns;
  w.end_ns = w.begin_ns;
  for (const RequestRecord* r : measured) {
    w.begin_ns = std::min(w.begin_ns, r->scheduled_ns);
    if (r->finished_ns != 0) w.end_ns = std::max(w.end_ns, r->finished_ns);
  }
  return w;
}

// Peak and time-weighted mean of requests in flight over [sent, finished), within the window.
// At equal times a finish is counted before a send, so back-to-back requests do not overlap.
std::pair<double, double> concurrency(const std::vector<const RequestRecord*>& measured,
                                      const Window& w) {
  std::vector<std::pair<int64_t, int>> events;
  double busy_ns = 0;
  for (const RequestRecord* r : measured) {
    if (r->sent_ns == 0 || r->finished_ns == 0) continue;
    events.emplace_back(r->sent_ns, +1);
    events.emplace_back(r->finished_ns, -1);
    const int64_t from = std::max(r->sent_ns, w.begin_ns), to = std::min(r->finished_ns, w.end_ns);
    if (to > from) busy_ns += static_cast<double>(to - from);
  }
  std::sort(events.begin(), events.end());
  int in_flight = 0, peak = 0;
  for (const auto& e : events) peak = std::max(peak, in_flight += e.second);
  const double window_ns = static_cast<double>(w.end_ns - w.begin_ns);
  return {static_cast<double>(peak), window_ns > 0 ? busy_ns / window_ns : 0.0};
}

// Per-request values pooled for the StatSummaries.
struct Samples {
  std::vector<double> ttft, tpot, itl, e2e, send_lag, input_tokens, output_tokens;
  std::vector<double> ttfot, reasoning_tokens;  // requests whose stream carried reasoning
  bool reasoned = false;
};

// A reasoning model's request: its thinking's length (0 for a request that did not think), and
// the time to its answer's first token (the first token after the thinking; none when no answer
// came). Kept only when some request of the run thought.
void add_reasoning(const RequestRecord& r, Samples& s) {
  const size_t thinking = size_t(r.reasoning_tokens.value_or(0));
  s.reasoned = s.reasoned || r.reasoning_tokens.has_value();
  s.reasoning_tokens.push_back(double(thinking));
  if (thinking < r.token_times_ns.size()) {
    s.ttfot.push_back(ms(r.token_times_ns[thinking] - r.scheduled_ns));
  }
}

// Sums over ok requests for the rates.
struct Totals {
  int64_t good = 0, input_tokens = 0, output_tokens = 0;
};

void add_ok_request(const RequestRecord& r, const SloSpec& slo, Samples& s, Totals& totals) {
  const RequestLatencies l = latencies_of(r);
  if (!std::isnan(l.ttft)) s.ttft.push_back(l.ttft);
  if (!std::isnan(l.tpot)) s.tpot.push_back(l.tpot);
  if (!std::isnan(l.e2e)) s.e2e.push_back(l.e2e);
  for (size_t i = 1; i < r.token_times_ns.size(); ++i) {
    s.itl.push_back(ms(r.token_times_ns[i] - r.token_times_ns[i - 1]));
  }
  s.input_tokens.push_back(r.input_tokens);
  s.output_tokens.push_back(r.output_tokens);
  add_reasoning(r, s);
  totals.good += meets_slo(l, slo);
  totals.input_tokens += r.input_tokens;
  totals.output_tokens += r.output_tokens;
}

void fill_rates(double window_s, const Totals& totals, RunSummary& out) {
  out.duration_s = window_s;
  if (out.num_requests > 0) {
    out.good_fraction = static_cast<double>(totals.good) / static_cast<double>(out.num_requests);
  }
  if (window_s <= 0) return;
  out.request_throughput_rps = static_cast<double>(out.num_completed) / window_s;
  out.output_throughput_tps = static_cast<double>(totals.output_tokens) / window_s;
  out.total_throughput_tps =
      static_cast<double>(totals.input_tokens + totals.output_tokens) / window_s;
  out.goodput_rps = static_cast<double>(totals.good) / window_s;
}

void count_status(RequestStatus status, RunSummary& out) {
  switch (status) {
    case RequestStatus::kOk:
      ++out.num_completed;
      break;
    case RequestStatus::kError:
      ++out.num_errors;
      break;
    case RequestStatus::kAborted:
      ++out.num_aborted;
      break;
  }
}

}  // namespace

StatSummary summarize_values(std::vector<double> values) {
  StatSummary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = static_cast<int64_t>(values.size());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(s.count);
  s.min = values.front();
  s.max = values.back();
  s.p50 = linear_percentile(values, 50);
  s.p90 = linear_percentile(values, 90);
  s.p95 = linear_percentile(values, 95);
  s.p99 = linear_percentile(values, 99);
  return s;
}

namespace {

// Of the completed requests whose answer was judged, the share that was valid.
std::optional<double> valid_output_rate(const std::vector<const RequestRecord*>& measured) {
  int64_t judged = 0, valid = 0;
  for (const RequestRecord* r : measured) {
    if (r->status != RequestStatus::kOk || !r->output_problem) continue;
    ++judged;
    if (r->output_problem->empty()) ++valid;
  }
  if (judged == 0) return std::nullopt;
  return double(valid) / double(judged);
}

}  // namespace

RunSummary summarize_run(const std::vector<RequestRecord>& records, const SloSpec& slo) {
  std::vector<const RequestRecord*> measured;
  for (const RequestRecord& r : records) {
    if (!r.warmup) measured.push_back(&r);
  }
  RunSummary out;
  out.num_requests = static_cast<int64_t>(measured.size());
  Samples s;
  Totals totals;
  for (const RequestRecord* r : measured) {
    count_status(r->status, out);
    if (r->sent_ns != 0) s.send_lag.push_back(ms(r->sent_ns - r->scheduled_ns));
    if (r->status == RequestStatus::kOk) add_ok_request(*r, slo, s, totals);
  }
  if (out.num_requests > 0) {
    out.error_share = static_cast<double>(out.num_errors) / static_cast<double>(out.num_requests);
  }
  out.error_classes = classify_errors(records);
  const Window window = measured_window(measured);
  fill_rates(window.seconds(), totals, out);
  out.ttft_ms = summarize_values(std::move(s.ttft));
  out.tpot_ms = summarize_values(std::move(s.tpot));
  out.itl_ms = summarize_values(std::move(s.itl));
  out.e2e_ms = summarize_values(std::move(s.e2e));
  out.send_lag_ms = summarize_values(std::move(s.send_lag));
  out.input_tokens = summarize_values(std::move(s.input_tokens));
  out.output_tokens = summarize_values(std::move(s.output_tokens));
  if (s.reasoned) {  // else TTFOT is TTFT, and nothing was thinking
    out.ttfot_ms = summarize_values(std::move(s.ttfot));
    out.reasoning_tokens = summarize_values(std::move(s.reasoning_tokens));
  }
  std::tie(out.peak_concurrency, out.mean_concurrency) = concurrency(measured, window);
  out.valid_output_rate = valid_output_rate(measured);
  return out;
}

}  // namespace infergate
