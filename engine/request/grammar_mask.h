// Structured output's step: a row of logits keeps only the tokens the request's grammar takes
// next, and the end (EOS and stop_token_ids) only where the grammar is complete.
#pragma once

#include <cstdint>
#include <span>

#include "engine/grammar/token_grammar.h"
#include "engine/request/sampling_params.h"

namespace infergate {

// Sets every other logit to -inf. When nothing is left (the vocabulary cannot spell what the
// grammar needs next, or min_tokens holds back the end of a complete grammar), the end tokens
// are let through so the answer ends rather than running on with an arbitrary token.
void apply_grammar_mask(std::span<float> logits, const TokenGrammar& grammar,
                        const GrammarMatcher& state, const SamplingParams& params,
                        int32_t eos_token_id);

// Whether `token` ends the answer under `params` (EOS unless ignore_eos, or a stop token id).
bool is_end_token(int32_t token, const SamplingParams& params, int32_t eos_token_id);

}  // namespace infergate
