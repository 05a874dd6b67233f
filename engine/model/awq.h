// AWQ's activation-aware scale search (Lin et al., 2024, "AWQ: Activation-aware Weight
// Quantization"): the few input channels with large activations matter most to a weight-only
// INT4 matrix's output, and scaling their weight columns up by s_j (dividing the activation by
// s_j, folded into the layer before: channel_scaling.h) quantizes them with less relative
// error. Per site the search tries s = mean|X|^alpha (normalized by sqrt(max s * min s)) for
// alpha = 0, 0.05, .., 0.95 and keeps the alpha whose group-wise INT4 matrices Q(W s) / s best
// reproduce the site's output on the calibration rows: q/k/v's outputs; for gate/up the dense
// FFN's output down(silu(gate x) * up x) (llm-awq inspects the whole MLP; an MoE's experts
// are scored by their gate/up outputs); down's output. alpha = 0 is plain INT4 (s = 1).
// Alpha is chosen on the even rows and kept only if it also lowers the error on the odd rows,
// else the site stays plain: scales fitted to noise do not ship.
//
// Sites, as llm-awq's for Llama: q/k/v (folded into the attention norm), gate/up (the FFN norm;
// an MoE's experts and router too) and down (folded into up's rows; dense FFNs only). o_proj is
// not searched: folding into v's rows needs one scale per shared KV head. llm-awq's second step,
// a search for a clipping range per group, is not done.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/model_weights.h"

namespace infergate {

// Calibration activations at one site of one layer.
struct SiteSamples {
  int64_t channels = 0;
  std::vector<double> mean_abs;  // [channels]: mean |x_j| over every calibration token
  std::vector<float> rows;       // [rows, channels]: a bounded subset of tokens, for the loss
  int64_t num_rows() const { return channels > 0 ? int64_t(rows.size()) / channels : 0; }
};

// Per layer; `down` has channels 0 for MoE layers (not searched).
struct ActivationSamples {
  std::vector<SiteSamples> attention, ffn, down;
};

// What the search chose at one site, with the calibration loss it moved.
struct AwqSiteChoice {
  int layer = 0;
  const char* site = "";  // "qkv", "gate_up" or "down"
  double alpha = 0;
  double plain_loss = 0;  // alpha 0: INT4 without scales
  double chosen_loss = 0;
};

// Searches and applies the scales to `w` in place (touched tensors become f32; the model
// computes the same function). Quantize afterwards with group-wise INT4 of the same `group`.
// Throws std::invalid_argument for samples of the wrong shape or a group that does not divide
// a searched matrix's rows.
std::vector<AwqSiteChoice> awq_search(ModelWeights& w, const ActivationSamples& samples,
                                      int64_t group);

}  // namespace infergate
