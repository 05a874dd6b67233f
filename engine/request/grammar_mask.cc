#include "engine/request/grammar_mask.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace infergate {

bool is_end_token(int32_t token, const SamplingParams& params, int32_t eos_token_id) {
  if (token == eos_token_id && !params.ignore_eos) return true;
  return std::find(params.stop_token_ids.begin(), params.stop_token_ids.end(), token) !=
         params.stop_token_ids.end();
}

void apply_grammar_mask(std::span<float> logits, const TokenGrammar& grammar,
                        const GrammarMatcher& state, const SamplingParams& params,
                        int32_t eos_token_id) {
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  const std::vector<bool>& allowed = *grammar.allowed(state);
  const bool may_end = state.complete();
  bool any = false;
  for (size_t id = 0; id < logits.size(); ++id) {
    const bool end = is_end_token(int32_t(id), params, eos_token_id);
    const bool keep = end ? may_end : id < allowed.size() && allowed[id];
    if (!keep) logits[id] = kMasked;
    any = any || (keep && logits[id] != kMasked && !std::isnan(logits[id]));
  }
  if (any) return;
  if (eos_token_id >= 0 && size_t(eos_token_id) < logits.size()) logits[size_t(eos_token_id)] = 0;
  for (int32_t id : params.stop_token_ids) {
    if (id >= 0 && size_t(id) < logits.size()) logits[size_t(id)] = 0;
  }
}

}  // namespace infergate
