#include "sim/step_cost_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/link_model.h"

namespace infergate {

namespace {

void check_layout(const ModelConfig& m, const SimLayout& l) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("layout: " + what); };
  if (l.tensor_parallel < 1 || l.pipeline_parallel < 1 || l.expert_parallel < 1) {
    bad("every degree of parallelism must be >= 1");
  }
  if (l.tensor_parallel > 1 && l.expert_parallel > 1 && l.tensor_parallel != l.expert_parallel) {
    bad("tensor_parallel and expert_parallel share one group: each is 1 or the group's size");
  }
  if (m.num_heads % l.tensor_parallel != 0) {
    bad("tensor_parallel " + std::to_string(l.tensor_parallel) + " does not divide the " +
        std::to_string(m.num_heads) + " attention heads");
  }
  if (l.expert_parallel > 1 && (!m.is_moe() || m.moe.num_experts % l.expert_parallel != 0)) {
    bad("expert_parallel " + std::to_string(l.expert_parallel) + " needs a MoE model whose " +
        "experts it divides");
  }
  if (l.pipeline_parallel > m.num_layers) {
    bad("pipeline_parallel " + std::to_string(l.pipeline_parallel) + " is more than the " +
        std::to_string(m.num_layers) + " layers");
  }
  if (l.micro_batches < 1) bad("micro_batches must be >= 1");
}

}  // namespace

std::vector<std::span<const SequenceWork>> split_micro_batches(
    std::span<const SequenceWork> sequences, int count) {
  std::vector<std::span<const SequenceWork>> out;
  double total = 0;
  for (const SequenceWork& s : sequences) total += s.new_tokens;
  const size_t n = sequences.size();
  size_t begin = 0;
  double done = 0;
  for (int m = 0; m < count && begin < n; ++m) {
    const double target = total * double(m + 1) / double(count);
    size_t end = begin + 1;  // at least one sequence each
    done += sequences[begin].new_tokens;
    const size_t left_for_rest = size_t(count - m - 1);
    while (end < n && done + sequences[end].new_tokens <= target && n - end > left_for_rest) {
      done += sequences[end++].new_tokens;
    }
    if (m == count - 1) end = n;
    out.push_back(sequences.subspan(begin, end - begin));
    begin = end;
  }
  return out;
}

StepCostModel::StepCostModel(ModelConfig model, HardwareSpec hardware, Calibration calibration,
                             SimLayout layout, Precision precision)
    : model_(std::move(model)),
      hardware_(std::move(hardware)),
      calibration_(std::move(calibration)),
      layout_(layout),
      precision_(std::move(precision)),
      peak_flops_(hardware_.peak_flops_for(precision_.compute_dtype)),
      bandwidth_(hardware_.memory_bandwidth_bytes_s) {
  check_layout(model_, layout_);
  share_host(layout_.host_ranks);
  const int pp = layout_.pipeline_parallel;
  for (int s = 0; s < pp; ++s) {
    stage_layers_.push_back(model_.num_layers / pp + (s < model_.num_layers % pp ? 1 : 0));
  }
}

void StepCostModel::share_host(int host_ranks) {
  layout_.host_ranks = host_ranks;
  peak_flops_ = hardware_.peak_flops_for(precision_.compute_dtype);
  bandwidth_ = hardware_.memory_bandwidth_bytes_s;
  // A CPU's ranks are processes on one host: each runs on its threads' share of the cores
  // (never more than the cores divided among the host's ranks, replicas' included), with that
  // share of the bandwidth.
  if (hardware_.kind != "cpu") return;
  const double cores = hardware_.cores;
  const double threads = layout_.threads > 0 ? layout_.threads : cores;
  const double ranks = std::max(layout_.devices(), layout_.host_ranks);
  const double share = std::min(threads, cores / ranks) / cores;
  peak_flops_ *= share;
  bandwidth_ *= share;
}

double StepCostModel::op(const Work& work, double tokens) const {
  return roofline_seconds(work, peak_flops_, calibration_.compute_efficiency_at(tokens), bandwidth_,
                          calibration_.memory_efficiency);
}

double StepCostModel::moe_seconds(double tokens, StepTime& time) const {
  const MoeConfig& moe = model_.moe;
  const double h = model_.hidden_size, g = layout_.group(), wb = precision_.weight_bytes;
  const double ab = precision_.activation_bytes;
  // Every rank routes its tokens (the router is small and replicated).
  const double router = op(gemm_work(tokens, moe.num_experts, h, 4, ab), tokens);
  // Experts a batch touches, in expectation over uniform routing: E (1 - (1 - k/E)^T).
  const double e = moe.num_experts, k = moe.top_k;
  const double touched = e * (1 - std::pow(1 - k / e, tokens));
  const double ie = moe.expert_intermediate_size;
  Work experts{2 * tokens * k * 3 * h * ie / g, touched * 3 * h * ie * wb / g};
  experts.bytes += tokens * k * (h + 2 * ie) * ab / g;
  double seconds = router + op(experts, tokens * k / std::max(1.0, touched));
  if (moe.shared_expert_intermediate_size > 0) {
    const double is = moe.shared_expert_intermediate_size / double(layout_.tensor_parallel);
    seconds += op(gemm_work(tokens, 2 * is, h, wb, ab), tokens) +
               op(gemm_work(tokens, h, is, wb, ab), tokens);
  }
  time.by_operator["moe_router"] += router;
  time.by_operator["moe_experts"] += seconds - router;
  return seconds;
}

double StepCostModel::layer_seconds(std::span<const SequenceWork> batch, double tokens,
                                    StepTime& time) const {
  const ModelConfig& m = model_;
  const double tp = layout_.tensor_parallel, h = m.hidden_size, hd = m.head_dim;
  const double wb = precision_.weight_bytes, ab = precision_.activation_bytes;
  const double heads = m.num_heads / tp;
  const double kv_heads = std::max(1.0, std::floor(m.num_kv_heads / tp));
  double compute = 0;
  auto add = [&](const char* name, double seconds) {
    time.by_operator[name] += seconds;
    compute += seconds;
  };
  add("qkv_proj", op(gemm_work(tokens, (heads + 2 * kv_heads) * hd, h, wb, ab), tokens));
  double attention = 0;
  for (const SequenceWork& s : batch) {
    attention += op(attention_work(s.new_tokens, s.context_before, heads, kv_heads, hd,
                                   precision_.kv_bytes, ab),
                    s.new_tokens) /
                 calibration_.attention_efficiency;
  }
  add("attention", attention);
  add("o_proj", op(gemm_work(tokens, h, heads * hd, wb, ab), tokens));
  if (m.is_moe()) {
    compute += moe_seconds(tokens, time);
  } else {
    const double i = m.intermediate_size / tp;
    add("ffn", op(gemm_work(tokens, 2 * i, h, wb, ab), tokens) +
                   op(gemm_work(tokens, h, i, wb, ab), tokens));
  }
  // Tensor parallelism sums partial outputs after attention and after the FFN; expert
  // parallelism sends each token's hidden state to its experts' ranks and back.
  const LinkSpec& link = hardware_.link_for(layout_.group());
  double comm = 0;
  if (layout_.tensor_parallel > 1) {
    const double ar = all_reduce_seconds(link, tokens * h * ab, layout_.tensor_parallel);
    time.by_operator["all_reduce"] += 2 * ar;
    comm += 2 * ar;
  }
  if (m.is_moe() && layout_.expert_parallel > 1) {
    const double a2a =
        all_to_all_seconds(link, tokens * m.moe.top_k * h * ab, layout_.expert_parallel);
    time.by_operator["all_to_all"] += 2 * a2a;
    comm += 2 * a2a;
  }
  time.compute_s += compute;
  time.communication_s += comm;
  return compute + comm;
}

double StepCostModel::stage_seconds(std::span<const SequenceWork> batch, int stage,
                                    StepTime& time) const {
  double tokens = 0, rows = 0;
  for (const SequenceWork& s : batch) tokens += s.new_tokens, rows += s.logit_rows;
  if (tokens <= 0) return 0;
  double seconds = 0;
  for (int l = 0; l < stage_layers_[size_t(stage)]; ++l) {
    seconds += layer_seconds(batch, tokens, time);
  }
  // Operators launched: QKV, attention, O, and the FFN's two (a MoE layer's router and experts,
  // and a shared expert), per layer; the LM head.
  const bool last = stage == layout_.pipeline_parallel - 1;
  const int per_layer = model_.is_moe() ? 5 + (model_.moe.shared_expert_intermediate_size > 0) : 5;
  const double launches = stage_layers_[size_t(stage)] * per_layer + (last && rows > 0 ? 1 : 0);
  const double launch_s = launches * calibration_.operator_overhead_s;
  time.overhead_s += launch_s;
  seconds += launch_s;
  if (last && rows > 0) {
    const double tp = layout_.tensor_parallel;
    const double head = op(gemm_work(rows, model_.vocab_size / tp, model_.hidden_size,
                                     precision_.weight_bytes, precision_.activation_bytes),
                           rows);
    time.by_operator["lm_head"] += head;
    time.compute_s += head;
    seconds += head;
    if (tp > 1) {  // the logit rows gathered on the rank that samples
      const double gather =
          all_to_all_seconds(hardware_.link_for(int(tp)), rows * model_.vocab_size * 4, int(tp));
      time.by_operator["all_to_all"] += gather;
      time.communication_s += gather;
      seconds += gather;
    }
  }
  return seconds;
}

StepTime StepCostModel::step(std::span<const SequenceWork> sequences) const {
  StepTime time;
  if (sequences.empty()) return time;
  const int pp = layout_.pipeline_parallel;
  const auto batches = split_micro_batches(sequences, pp > 1 ? layout_.micro_batches : 1);
  // GPipe within a step: micro-batch j leaves stage s when both it has left stage s-1 (and
  // crossed the link) and stage s has finished micro-batch j-1.
  std::vector<double> finish(size_t(pp), 0);
  const LinkSpec& link = hardware_.link_for(layout_.devices());
  for (const auto& batch : batches) {
    double tokens = 0;
    for (const SequenceWork& s : batch) tokens += s.new_tokens;
    double ready = 0;
    for (int s = 0; s < pp; ++s) {
      if (s > 0) {
        const double hop =
            send_recv_seconds(link, tokens * model_.hidden_size * precision_.activation_bytes);
        time.by_operator["send_recv"] += hop;
        time.communication_s += hop;
        ready += hop;
      }
      const double start = std::max(ready, finish[size_t(s)]);
      finish[size_t(s)] = start + stage_seconds(batch, s, time);
      ready = finish[size_t(s)];
    }
  }
  double tokens = 0;
  for (const SequenceWork& s : sequences) tokens += s.new_tokens;
  time.overhead_s += calibration_.step_overhead_s +
                     calibration_.sequence_overhead_s * double(sequences.size()) +
                     calibration_.token_overhead_s * tokens;
  time.seconds = finish.back() + time.overhead_s;
  return time;
}

}  // namespace infergate
