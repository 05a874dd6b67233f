#include "engine/request/logits_processors.h"

#include <limits>
#include <vector>

namespace infergate {

namespace {

bool in_row(std::span<float> logits, int32_t id) { return id >= 0 && size_t(id) < logits.size(); }

void apply_bias(std::span<float> logits, const SamplingParams& p) {
  for (const auto& [id, bias] : p.logit_bias) {
    if (in_row(logits, id)) logits[size_t(id)] += bias;
  }
}

void mask_stops(std::span<float> logits, const SamplingParams& p, const TokenHistory& h,
                int32_t eos_token_id) {
  if (h.num_output_tokens() >= p.min_tokens) return;
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  if (!p.ignore_eos && in_row(logits, eos_token_id)) logits[size_t(eos_token_id)] = kMasked;
  for (int32_t id : p.stop_token_ids) {
    if (in_row(logits, id)) logits[size_t(id)] = kMasked;
  }
}

// Per-token counts in a vocab-sized scratch that is reset after each use (touched ids only),
// so a row costs O(history), not O(vocab).
class TokenCounts {
 public:
  TokenCounts(size_t vocab, std::vector<int32_t>& counts) : counts_(counts) {
    if (counts_.size() < vocab) counts_.assign(vocab, 0);
  }
  ~TokenCounts() {
    for (int32_t id : touched_) counts_[size_t(id)] = 0;
  }
  void add(int32_t id) {
    if (counts_[size_t(id)]++ == 0) touched_.push_back(id);
  }
  int32_t count(int32_t id) const { return counts_[size_t(id)]; }
  const std::vector<int32_t>& distinct() const { return touched_; }

 private:
  std::vector<int32_t>& counts_;
  std::vector<int32_t> touched_;
};

void apply_repetition(std::span<float> logits, float penalty, const TokenHistory& h,
                      std::vector<int32_t>& scratch) {
  TokenCounts seen(logits.size(), scratch);
  for (int32_t id : h.tokens) {
    if (in_row(logits, id)) seen.add(id);
  }
  for (int32_t id : h.pending) {
    if (in_row(logits, id)) seen.add(id);
  }
  for (int32_t id : seen.distinct()) {
    float& x = logits[size_t(id)];
    x = x > 0.0f ? x / penalty : x * penalty;
  }
}

void apply_frequency_presence(std::span<float> logits, const SamplingParams& p,
                              const TokenHistory& h, std::vector<int32_t>& scratch) {
  TokenCounts output(logits.size(), scratch);
  for (size_t i = size_t(h.num_prompt_tokens); i < h.tokens.size(); ++i) {
    if (in_row(logits, h.tokens[i])) output.add(h.tokens[i]);
  }
  for (int32_t id : h.pending) {
    if (in_row(logits, id)) output.add(id);
  }
  for (int32_t id : output.distinct()) {
    logits[size_t(id)] -= float(output.count(id)) * p.frequency_penalty + p.presence_penalty;
  }
}

}  // namespace

void apply_logits_processors(std::span<float> logits, const SamplingParams& params,
                             const TokenHistory& history, int32_t eos_token_id) {
  thread_local std::vector<int32_t> scratch;  // zero between calls
  apply_bias(logits, params);
  if (params.min_tokens > 0) mask_stops(logits, params, history, eos_token_id);
  if (params.repetition_penalty != 1.0f) {
    apply_repetition(logits, params.repetition_penalty, history, scratch);
  }
  if (params.frequency_penalty != 0.0f || params.presence_penalty != 0.0f) {
    apply_frequency_presence(logits, params, history, scratch);
  }
}

}  // namespace infergate
