#include "model_cost.h"

namespace infergate::bench {

StepCost step_cost(const ModelConfig& c, DType dtype, int64_t seqs, int64_t tokens_per_seq,
                   int64_t context_len, int64_t logit_rows) {
  const double d = c.hidden_size, q = c.q_size(), kv = c.kv_size(), f = c.intermediate_size;
  const double layer_params = d * q + 2 * d * kv + q * d + 3 * d * f;
  const double head_params = double(c.vocab_size) * d;
  const double tokens = double(seqs * tokens_per_seq);
  const double element =
      double(dtype_bytes(dtype, dtype_block_elems(dtype))) / double(dtype_block_elems(dtype));
  StepCost cost;
  cost.weight_bytes = element * (layer_params * c.num_layers + head_params + d * tokens);
  // Query j of a sequence (0-based among its new tokens) attends context_len - tokens + j + 1
  // positions: QK^T and PV, 2 FLOPs per multiply-add, every query head.
  double attended = 0;
  for (int64_t j = 0; j < tokens_per_seq; ++j)
    attended += double(context_len - tokens_per_seq + j + 1);
  const double attention = 4.0 * attended * double(c.head_dim) * c.num_heads * double(seqs);
  cost.flops = 2.0 * layer_params * tokens * c.num_layers + 2.0 * head_params * double(logit_rows) +
               attention * c.num_layers;
  return cost;
}

StepCost mean_decode_step_cost(const ModelConfig& c, DType weight_dtype, int64_t seqs,
                               int64_t steps, int64_t prompt) {
  StepCost mean;
  for (int64_t i = 0; i < steps; ++i) {
    const StepCost one = step_cost(c, weight_dtype, seqs, 1, prompt + 2 + i, seqs);
    mean.weight_bytes += one.weight_bytes / double(steps);
    mean.flops += one.flops / double(steps);
  }
  return mean;
}

}  // namespace infergate::bench
