// Quality of a model against a baseline on the same tokens, as llama.cpp's
// `llama-perplexity --kl-divergence` defines it (docs/metrics.md, "Quality"): per scored
// position, the KL divergence of the baseline's next-token distribution from the model's, whether
// their top-1 tokens agree, and both models' negative log-likelihood of the actual next token.
#pragma once

#include <cstdint>
#include <vector>

#include "common/results/run_summary.h"

namespace infergate {

struct QualitySummary {
  int64_t positions = 0;  // scored next-token predictions
  double perplexity = 0;  // exp(mean NLL) of the model
  double baseline_perplexity = 0;
  double top1_agreement = 0;  // fraction of positions whose argmax tokens agree
  StatSummary kl_divergence;  // KL(P_baseline || P_model) per position, in nats
};

class QualityAccumulator {
 public:
  // One position: both models' logits (vocab floats each) and the token that came next.
  void add(const float* baseline_logits, const float* model_logits, int64_t vocab,
           int32_t next_token);
  QualitySummary summary() const;

 private:
  std::vector<double> kl_;
  double nll_ = 0, baseline_nll_ = 0;
  int64_t agree_ = 0;
};

}  // namespace infergate
