// The roofline: an operator takes as long as the slower of its arithmetic at the device's peak
// FLOP/s and its memory traffic at the device's bandwidth, each scaled by the efficiency the
// calibration measured (Williams, Waterman and Patterson 2009; as Vidur and LLM-Viewer use it).
#pragma once

namespace infergate {

// An operator's arithmetic and memory traffic.
struct Work {
  double flops = 0;
  double bytes = 0;
  Work& operator+=(const Work& o) {
    flops += o.flops;
    bytes += o.bytes;
    return *this;
  }
};

// Seconds for `work` at `peak_flops` x `compute_efficiency` and `bandwidth` x
// `memory_efficiency` (bytes/s), whichever is slower.
double roofline_seconds(const Work& work, double peak_flops, double compute_efficiency,
                        double bandwidth, double memory_efficiency);

// C[m,n] = A[m,k] B[k,n] with A the activations and B the weights: 2mnk FLOPs; reads the
// weights once and the activations, writes the output.
Work gemm_work(double m, double n, double k, double weight_bytes, double activation_bytes);

// Attention of `new_tokens` queries over `context_before` cached tokens plus themselves
// (causal), `heads` query heads and `kv_heads` KV heads of `head_dim`: QK^T and PV FLOPs, the
// K and V read once (as flash attention streams them) and the new tokens' K and V written.
Work attention_work(double new_tokens, double context_before, double heads, double kv_heads,
                    double head_dim, double kv_bytes, double activation_bytes);

}  // namespace infergate
