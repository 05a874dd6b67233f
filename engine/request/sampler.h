// Next-token selection from one row of logits: greedy, temperature, top-k and top-p, with a
// per-request random stream that is bit-identical on every platform.
#pragma once

#include <cstdint>
#include <vector>

#include "common/random/xoshiro256.h"
#include "engine/request/sampling_params.h"

namespace infergate {

// Per-request random stream: a request with a seed gets Xoshiro256(seed), so the same seed and
// prompt give the same tokens regardless of batch composition; unseeded requests get a seed from
// the engine's own generator.
//
// Chooses the next token from one row of logits. temperature == 0: argmax (ties to the lowest
// id). Otherwise: logits / temperature, then top-k (keep the k largest), then top-p (keep the
// smallest set of highest-probability tokens whose mass >= top_p, always at least one), then
// renormalize and draw with rng. Never returns a token outside the kept set.
//
// Ranking is by (logit descending, id ascending) everywhere, so ties at the top-k or top-p
// boundary keep the lower ids and the kept set is unique. NaN logits count as -inf; a token whose
// probability underflows to 0 is never drawn, and if every logit is -inf the result is the
// greedy one. Greedy consumes no randomness; every call with temperature > 0 consumes exactly
// one rng.uniform(), so a request's stream advances one step per token whatever its top-k/top-p.
// Throws std::invalid_argument if logits is null or vocab_size < 1; params are expected to have
// passed SamplingParams::validate().
int32_t sample_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                     Xoshiro256& rng);

// Speculative decoding's verification of one proposed token against this row: rejection
// sampling (Leviathan et al. 2023, Chen et al. 2023) for a draft that is a single token, as the
// n-gram proposer's are (q = 1 on the draft). Greedy: the draft stands when it is the argmax,
// else the argmax is returned, consuming no randomness. Otherwise, with p the distribution
// sample_token draws from (the same temperature, top-k and top-p): the draft stands with
// probability p(draft) (one rng.uniform()); on rejection a second uniform draws from p without
// the draft, renormalized (norm(max(0, p - q))). So the returned token is distributed exactly
// as sample_token's, and it equals `draft` exactly when the draft was accepted.
int32_t verify_draft_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                           int32_t draft, Xoshiro256& rng);

// The distribution sample_token draws from, dense: [vocab_size] probabilities summing to 1, zero
// outside the kept set (top-k, top-p). Greedy (or every logit -inf): one-hot at the argmax. A
// draft model's proposal distribution q, kept for verify_draft_token below.
std::vector<float> sampling_distribution(const float* logits, int32_t vocab_size,
                                         const SamplingParams& params);

// verify_draft_token for a draft drawn from a distribution `q` ([vocab_size], from
// sampling_distribution of the draft model's row under the same params): the draft stands with
// probability min(1, p(draft) / q(draft)) (one rng.uniform()); on rejection a second uniform
// draws from norm(max(0, p - q)). Greedy: argmax agreement, no randomness. The returned token is
// distributed exactly as sample_token's whenever the draft was drawn from q.
int32_t verify_draft_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                           int32_t draft, const float* q, Xoshiro256& rng);

}  // namespace infergate
