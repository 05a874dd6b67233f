#include "engine/forward/cpu/cpu_moe.h"

#include <algorithm>
#include <numeric>

#include "engine/forward/cpu/cpu_weights.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/moe_routing.h"
#include "kernels/cpu/ops.h"

namespace infergate {

namespace {

// acc[j] += weight * x[j]
void axpy(float* acc, float weight, const float* x, int64_t count) {
  for (int64_t j = 0; j < count; ++j) acc[j] += weight * x[j];
}

// Row counts as element counts.
std::vector<size_t> scaled(const std::vector<size_t>& rows, int64_t width) {
  std::vector<size_t> out(rows);
  for (size_t& x : out) x *= size_t(width);
  return out;
}

}  // namespace

CpuMoe::CpuMoe(const ModelConfig& config, ThreadPool& pool, RunFfn run_ffn, const ModelShard* shard,
               ShardCollectives* comm)
    : c_(config), pool_(pool), run_ffn_(std::move(run_ffn)), shard_(shard), comm_(comm) {}

size_t CpuMoe::workspace_bytes() const {
  return (expert_in_.capacity() + shared_out_.capacity() + gathered_.capacity()) * sizeof(float);
}

void CpuMoe::run(const OpMoe& moe, const float* x, int64_t rows, float* out) {
  if (shard_ && shard_->expert_parallel) {
    run_expert_parallel(moe, x, rows, out);
  } else {
    run_local(moe, x, rows, out);
  }
}

// The router's top_k choices for each of `n` rows of `h`, token by token.
std::vector<CpuMoe::Routed> CpuMoe::route(const OpMoe& moe, const float* h, int64_t n) {
  const MoeConfig& m = c_.moe;
  std::vector<float> router_logits(static_cast<size_t>(n * m.num_experts));
  const Tensor& router = static_cast<const CpuRowMajorWeight&>(*moe.router).tensor();
  linear(h, n, router, router_logits.data(), pool_);
  std::vector<int32_t> ids(size_t(n * m.top_k));
  std::vector<float> weights(ids.size());
  moe_topk(router_logits.data(), n, m.num_experts, m.top_k, m.normalize_top_k, ids.data(),
           weights.data());
  std::vector<Routed> routed;
  routed.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    routed.push_back({int64_t(i) / m.top_k, ids[i], weights[i]});
  }
  return routed;
}

// Runs one expert over `rows` rows of `in` gathered by `pick`, into `out` in the same order.
void CpuMoe::run_expert(const OpFfn& expert, const float* in, const std::vector<int64_t>& pick,
                        float* out) {
  const int64_t d = c_.hidden_size, rows = int64_t(pick.size());
  expert_in_.resize(size_t(rows * d));
  for (int64_t i = 0; i < rows; ++i)
    std::copy_n(in + pick[size_t(i)] * d, d, expert_in_.data() + i * d);
  run_ffn_(expert, expert_in_.data(), rows, out);
}

// Mixtral-style MoE: route every token, then run each expert once over the tokens it got
// (gathered into a dense batch) and scatter-add the weighted results.
void CpuMoe::run_local(const OpMoe& moe, const float* h, int64_t n, float* out) {
  const int64_t d = c_.hidden_size;
  const std::vector<Routed> routed = route(moe, h, n);
  std::vector<std::vector<int64_t>> picks(moe.experts.size());  // indices into routed
  for (size_t i = 0; i < routed.size(); ++i) picks[size_t(routed[i].expert)].push_back(int64_t(i));
  std::fill(out, out + n * d, 0.0f);
  std::vector<int64_t> tokens;
  std::vector<float> result;
  for (size_t e = 0; e < picks.size(); ++e) {
    if (picks[e].empty()) continue;
    tokens.clear();
    for (int64_t i : picks[e]) tokens.push_back(routed[size_t(i)].token);
    result.resize(tokens.size() * size_t(d));
    run_expert(moe.experts[e], h, tokens, result.data());
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Routed& r = routed[size_t(picks[e][i])];
      axpy(out + r.token * d, r.weight, result.data() + i * size_t(d), d);
    }
  }
  add_shared_expert(moe, h, n, out);
}

void CpuMoe::add_shared_expert(const OpMoe& moe, const float* in, int64_t rows, float* acc) {
  if (!moe.shared_expert.defined()) return;
  const int64_t d = c_.hidden_size;
  shared_out_.resize(size_t(rows * d));
  run_ffn_(moe.shared_expert, in, rows, shared_out_.data());
  add_inplace(acc, shared_out_.data(), rows * d);
}

// Sends each routed (token, expert) row of `h` to the rank holding its expert: `routed` must be
// in destination-rank order. Returns what this rank's experts received.
CpuMoe::ExpertExchange CpuMoe::dispatch_to_experts(const std::vector<Routed>& routed,
                                                   const float* h, int64_t per_rank) {
  const int64_t d = c_.hidden_size, group = shard_->group_size;
  std::vector<int64_t> send_counts(size_t(group), 0), recv_counts(size_t(group), 0);
  std::vector<float> send_rows(routed.size() * size_t(d));
  std::vector<int32_t> send_experts(routed.size());
  for (size_t i = 0; i < routed.size(); ++i) {
    ++send_counts[size_t(routed[i].expert / per_rank)];
    std::copy_n(h + routed[i].token * d, d, send_rows.data() + i * size_t(d));
    send_experts[i] = int32_t(routed[i].expert % per_rank);  // its index on that rank
  }
  comm_->exchange_counts(send_counts.data(), recv_counts.data(), 1);
  ExpertExchange x;
  x.sent.assign(send_counts.begin(), send_counts.end());
  x.received.assign(recv_counts.begin(), recv_counts.end());
  const size_t rows = std::accumulate(x.received.begin(), x.received.end(), size_t(0));
  x.rows.resize(rows * size_t(d));
  x.experts.resize(rows);
  comm_->all_to_all_v(send_experts.data(), x.sent.data(), x.experts.data(), x.received.data());
  const std::vector<size_t> sent_floats = scaled(x.sent, d),
                            received_floats = scaled(x.received, d);
  comm_->all_to_all_v(send_rows.data(), sent_floats.data(), x.rows.data(), received_floats.data());
  return x;
}

// This rank's experts over the rows it received, each result in its row's place.
std::vector<float> CpuMoe::run_received(const OpMoe& moe, const ExpertExchange& x) {
  const int64_t d = c_.hidden_size;
  std::vector<std::vector<int64_t>> picks(moe.experts.size());
  for (size_t i = 0; i < x.experts.size(); ++i) picks[size_t(x.experts[i])].push_back(int64_t(i));
  std::vector<float> results(x.rows.size()), out;
  for (size_t e = 0; e < picks.size(); ++e) {
    if (picks[e].empty()) continue;
    out.resize(picks[e].size() * size_t(d));
    run_expert(moe.experts[e], x.rows.data(), picks[e], out.data());
    for (size_t i = 0; i < picks[e].size(); ++i) {
      std::copy_n(out.data() + i * size_t(d), d, results.data() + picks[e][i] * d);
    }
  }
  expert_tokens_ += int64_t(x.experts.size());
  return results;
}

// Expert parallelism: this rank routes its slice of the tokens, dispatches them to the experts'
// ranks, runs its own experts over what it received, sends the results back, combines them
// with the router weights, and all-gathers the slices so every rank of the group has the whole
// batch again.
void CpuMoe::run_expert_parallel(const OpMoe& moe, const float* all, int64_t n, float* out) {
  const int64_t d = c_.hidden_size, group = shard_->group_size;
  const int64_t per_rank = int64_t(moe.experts.size()), chunk = (n + group - 1) / group;
  const int64_t lo = std::min(n, shard_->group_rank * chunk), hi = std::min(n, lo + chunk);
  const float* h = all + lo * d;
  std::vector<Routed> routed = route(moe, h, hi - lo);
  std::stable_sort(routed.begin(), routed.end(), [&](const Routed& a, const Routed& b) {
    return a.expert / per_rank < b.expert / per_rank;  // the all-to-all packs by destination
  });
  const ExpertExchange x = dispatch_to_experts(routed, h, per_rank);
  const std::vector<float> results = run_received(moe, x);
  std::vector<float> back(routed.size() * size_t(d));
  const std::vector<size_t> sent_floats = scaled(x.sent, d),
                            received_floats = scaled(x.received, d);
  comm_->all_to_all_v(results.data(), received_floats.data(), back.data(), sent_floats.data());

  std::vector<float> slice(size_t(chunk * d), 0.0f);
  for (size_t i = 0; i < routed.size(); ++i) {
    axpy(slice.data() + routed[i].token * d, routed[i].weight, back.data() + i * size_t(d), d);
  }
  add_shared_expert(moe, h, hi - lo, slice.data());
  gathered_.resize(size_t(chunk * d * group));
  comm_->all_gather(slice.data(), slice.size(), gathered_.data());
  std::copy_n(gathered_.data(), n * d, out);
}

}  // namespace infergate
