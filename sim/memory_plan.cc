#include "sim/memory_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace infergate {

std::string gigabytes_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f GB", bytes / 1e9);
  return buf;
}

double device_weight_parameters(const ModelConfig& m, const SimLayout& layout,
                                const std::vector<int>& stage_layers) {
  const double tp = layout.tensor_parallel, g = layout.group(), h = m.hidden_size;
  const double attention = h * (m.q_size() + 2.0 * m.kv_size()) / tp + double(m.q_size()) * h / tp;
  double ffn = 0;
  if (m.is_moe()) {
    ffn = double(m.moe.num_experts) * 3 * h * m.moe.expert_intermediate_size / g +
          3 * h * m.moe.shared_expert_intermediate_size / tp + h * m.moe.num_experts;
  } else {
    ffn = 3 * h * m.intermediate_size / tp;
  }
  const double per_layer = attention + ffn + 2 * h;  // + the two norms
  const double embed = double(m.vocab_size) * h / tp;
  const double head = m.tie_word_embeddings ? 0 : double(m.vocab_size) * h / tp;
  const size_t last = stage_layers.size() - 1;
  double largest = 0;
  for (size_t s = 0; s < stage_layers.size(); ++s) {
    double p = per_layer * stage_layers[s];
    if (s == 0) p += embed;
    if (s == last) p += head + h;  // + the final norm
    if (s == last && m.tie_word_embeddings && s != 0) p += embed;
    largest = std::max(largest, p);
  }
  return largest;
}

DeviceMemoryPlan plan_device_memory(const ModelConfig& m, const HardwareSpec& hardware,
                                    const SimLayout& layout, const std::vector<int>& stage_layers,
                                    const Precision& precision, int block_size,
                                    int max_num_batched_tokens, double memory_utilization) {
  DeviceMemoryPlan p;
  p.capacity_bytes = hardware.memory_bytes * memory_utilization;
  p.weights_bytes = device_weight_parameters(m, layout, stage_layers) * precision.weight_bytes;
  // The largest step's activations: a few hidden-size buffers and the FFN's widest one per
  // token, and one fp32 logit row per token at most.
  const double width = m.is_moe() ? double(m.moe.expert_intermediate_size) * m.moe.top_k
                                  : double(m.intermediate_size) / layout.tensor_parallel;
  const double per_token = (4.0 * m.hidden_size + 2 * width) * precision.activation_bytes;
  p.workspace_bytes = hardware.reserved_bytes + max_num_batched_tokens * per_token +
                      double(std::min(max_num_batched_tokens, 256)) * m.vocab_size * 4;
  // A KV head is never split: groups wider than the KV heads replicate them.
  const int largest_stage = *std::max_element(stage_layers.begin(), stage_layers.end());
  const double kv_heads = std::max(1, m.num_kv_heads / layout.tensor_parallel);
  p.kv_bytes_per_token = 2.0 * largest_stage * kv_heads * m.head_dim * precision.kv_bytes;
  const double free_bytes = p.capacity_bytes - p.weights_bytes - p.workspace_bytes;
  p.kv_blocks = free_bytes > 0 ? int64_t(free_bytes / (p.kv_bytes_per_token * block_size)) : 0;
  p.kv_bytes = double(p.kv_blocks) * block_size * p.kv_bytes_per_token;
  const std::string per_device =
      layout.devices() > 1 ? " per device (of " + std::to_string(layout.devices()) + ")" : "";
  if (p.weights_bytes + p.workspace_bytes > p.capacity_bytes) {
    p.reason = precision.weight_dtype + " weights: " + gigabytes_text(p.weights_bytes) +
               per_device + " + workspace " + gigabytes_text(p.workspace_bytes) + " > " +
               gigabytes_text(p.capacity_bytes) + " (" + gigabytes_text(hardware.memory_bytes) +
               " x " + std::to_string(memory_utilization).substr(0, 4) + ")";
  } else if (p.kv_blocks < 1) {
    p.reason = "no room for one KV block after " + precision.weight_dtype + " weights (" +
               gigabytes_text(p.weights_bytes) + per_device + ")";
  } else {
    p.fits = true;
  }
  return p;
}

}  // namespace infergate
