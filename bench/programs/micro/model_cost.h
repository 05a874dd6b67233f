// What one forward step of a model reads and computes, for turning step times into bytes/s
// and FLOP/s: weight bytes (every matrix, the LM head for the rows that sample, one embedding
// row per token) and FLOPs (2 per multiply-add of the projections and of causal attention).
#pragma once

#include <cstdint>

#include "engine/model/model_config.h"
#include "kernels/tensor.h"

namespace infergate::bench {

struct StepCost {
  double weight_bytes = 0;
  double flops = 0;
};

// `tokens` new tokens in `seqs` equal sequences, each sequence's new tokens ending at
// context_len; `logit_rows` rows go through the LM head.
StepCost step_cost(const ModelConfig& c, DType weight_dtype, int64_t seqs, int64_t tokens_per_seq,
                   int64_t context_len, int64_t logit_rows);

// The mean cost of `steps` decode steps of `seqs` sequences after a `prompt`-token prefill: step
// i decodes one token per sequence at context prompt + 2 + i (the first token came with it).
StepCost mean_decode_step_cost(const ModelConfig& c, DType weight_dtype, int64_t seqs,
                               int64_t steps, int64_t prompt);

}  // namespace infergate::bench
