#include "gates/diagnose/request_fits.h"

#include <algorithm>
#include <cmath>

namespace infergate {

namespace {

// The fields of one record diagnose reads; the results reader has checked their types and
// order (scheduled <= first token <= finished).
struct Timing {
  bool measured = false;
  double scheduled = 0, sent = 0, first = 0, finished = 0, input = 0, output = 0;
};

std::optional<Timing> completed(const RecordedRequest& r) {
  if (r.status != "ok" || !r.scheduled_ms || !r.sent_ms || !r.first_token_ms || !r.finished_ms) {
    return std::nullopt;
  }
  return Timing{!r.warmup,
                *r.scheduled_ms,
                *r.sent_ms,
                *r.first_token_ms,
                *r.finished_ms,
                double(r.input_tokens),
                double(r.output_tokens)};
}

std::vector<Timing> timings(const std::vector<RecordedRequest>& requests) {
  std::vector<Timing> out;
  for (const RecordedRequest& r : requests) {
    if (out.size() >= kMaxInterferenceRecords) break;
    if (auto t = completed(r)) out.push_back(*t);
  }
  return out;
}

double overlap(double a0, double a1, double b0, double b1) {
  return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
}

// Prompt tokens the other requests prefilled during request i's decode window.
double concurrent_prefill_tokens(const std::vector<Timing>& all, size_t i) {
  const Timing& me = all[i];
  double tokens = 0;
  for (size_t j = 0; j < all.size(); ++j) {
    const Timing& o = all[j];
    if (j == i || o.first <= o.sent) continue;
    tokens += o.input * overlap(me.first, me.finished, o.sent, o.first) / (o.first - o.sent);
  }
  return tokens;
}

}  // namespace

std::optional<LineFit> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 3) return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n), my /= double(n);
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0) || !(syy > 0)) return std::nullopt;
  LineFit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  f.r = sxy / std::sqrt(sxx * syy);
  f.n = n;
  return f;
}

std::optional<LineFit> ttft_by_prompt_tokens(
    const std::vector<const std::vector<RecordedRequest>*>& repetitions) {
  std::vector<double> x, y;
  for (const std::vector<RecordedRequest>* requests : repetitions) {
    for (const Timing& t : timings(*requests)) {
      if (!t.measured) continue;
      x.push_back(t.input);
      y.push_back(t.first - t.scheduled);
    }
  }
  return fit_line(x, y);
}

std::optional<LineFit> tpot_by_concurrent_prefill(
    const std::vector<const std::vector<RecordedRequest>*>& repetitions) {
  std::vector<double> x, y;
  for (const std::vector<RecordedRequest>* requests : repetitions) {
    const std::vector<Timing> all = timings(*requests);
    for (size_t i = 0; i < all.size(); ++i) {
      const Timing& t = all[i];
      if (!t.measured || t.output < 2) continue;
      x.push_back(concurrent_prefill_tokens(all, i) / (t.output - 1));
      y.push_back((t.finished - t.first) / (t.output - 1));
    }
  }
  return fit_line(x, y);
}

}  // namespace infergate
