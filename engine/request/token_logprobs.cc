#include "engine/request/token_logprobs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace infergate {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

float sanitized(float x) { return std::isnan(x) ? kNegInf : x; }

// log(sum(exp(x))) over the row, in double: a 150k-entry sum in float would lose digits.
double log_sum_exp(const float* logits, int32_t n) {
  float max = kNegInf;
  for (int32_t i = 0; i < n; ++i) max = std::max(max, sanitized(logits[i]));
  if (max == kNegInf || std::isinf(max)) return max;
  double sum = 0.0;
  for (int32_t i = 0; i < n; ++i) sum += std::exp(double(sanitized(logits[i])) - double(max));
  return double(max) + std::log(sum);
}

bool more_likely(const TokenLogprob& a, const TokenLogprob& b) {
  return a.logprob > b.logprob || (a.logprob == b.logprob && a.id < b.id);
}

}  // namespace

TokenLogprobs token_logprobs(const float* logits, int32_t vocab_size, int32_t token, int top_n) {
  const double lse = log_sum_exp(logits, vocab_size);
  const auto logprob = [&](int32_t id) {
    const float x = sanitized(logits[id]);
    if (x == kNegInf) return kNegInf;
    if (std::isinf(lse)) return x == lse ? 0.0f : kNegInf;  // a +inf logit takes all the mass
    return float(double(x) - lse);
  };
  TokenLogprobs out;
  out.logprob = logprob(token);
  const int n = std::clamp(top_n, 0, int(vocab_size));
  if (n == 0) return out;
  // A heap of the n best so far, worst on top: one comparison rejects almost every token.
  std::vector<TokenLogprob>& top = out.top;
  for (int32_t id = 0; id < vocab_size; ++id) {
    const TokenLogprob t{id, sanitized(logits[id])};
    if (int(top.size()) < n) {
      top.push_back(t);
      std::push_heap(top.begin(), top.end(), more_likely);
    } else if (more_likely(t, top.front())) {
      std::pop_heap(top.begin(), top.end(), more_likely);
      top.back() = t;
      std::push_heap(top.begin(), top.end(), more_likely);
    }
  }
  std::sort_heap(top.begin(), top.end(), more_likely);
  for (TokenLogprob& t : top) t.logprob = logprob(t.id);
  return out;
}

}  // namespace infergate
