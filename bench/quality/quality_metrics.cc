#include "bench/quality/quality_metrics.h"

#include <algorithm>
#include <cmath>

#include "bench/metrics/summarize.h"

namespace infergate {

namespace {

// log softmax of one row, in double: out[i] = logits[i] - logsumexp(logits).
void log_softmax(const float* logits, int64_t vocab, std::vector<double>& out) {
  out.resize(static_cast<size_t>(vocab));
  const double max = *std::max_element(logits, logits + vocab);
  double sum = 0;
  for (int64_t i = 0; i < vocab; ++i) sum += std::exp(double(logits[i]) - max);
  const double lse = max + std::log(sum);
  for (int64_t i = 0; i < vocab; ++i) out[size_t(i)] = double(logits[i]) - lse;
}

}  // namespace

void QualityAccumulator::add(const float* baseline_logits, const float* model_logits, int64_t vocab,
                             int32_t next_token) {
  thread_local std::vector<double> base, model;
  log_softmax(baseline_logits, vocab, base);
  log_softmax(model_logits, vocab, model);
  double kl = 0;
  for (int64_t i = 0; i < vocab; ++i)
    kl += std::exp(base[size_t(i)]) * (base[size_t(i)] - model[size_t(i)]);
  kl_.push_back(std::max(0.0, kl));  // >= 0 in exact arithmetic; rounding can dip below
  nll_ -= model[size_t(next_token)];
  baseline_nll_ -= base[size_t(next_token)];
  const auto argmax = [vocab](const float* row) {
    return std::max_element(row, row + vocab) - row;
  };
  agree_ += argmax(baseline_logits) == argmax(model_logits) ? 1 : 0;
}

QualitySummary QualityAccumulator::summary() const {
  QualitySummary s;
  s.positions = static_cast<int64_t>(kl_.size());
  if (s.positions == 0) return s;
  const double n = double(s.positions);
  s.perplexity = std::exp(nll_ / n);
  s.baseline_perplexity = std::exp(baseline_nll_ / n);
  s.top1_agreement = double(agree_) / n;
  s.kl_divergence = summarize_values(kl_);
  return s;
}

}  // namespace infergate
