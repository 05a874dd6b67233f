// The CPU's mixture-of-experts layer (ForwardOps::moe_ffn): route every token on the host
// (kernels/cpu/moe_routing.h: softmax over all experts, renormalized over the chosen ones when
// the model asks), run each expert once over the tokens it got, gathered into a dense batch,
// and scatter-add the weighted results. With expert parallelism each rank routes a slice of the
// tokens and exchanges them all-to-all with the ranks holding their experts.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/forward/forward_ops.h"
#include "engine/model/model_config.h"
#include "engine/model/model_shard.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

class CpuMoe {
 public:
  // Runs one FFN (the ops' dense FFN) over `rows` rows of `in` into `out`.
  using RunFfn = std::function<void(const OpFfn&, const float* in, int64_t rows, float* out)>;
  // `shard` and `comm` (both or neither) make it one rank's experts; they must outlive this.
  CpuMoe(const ModelConfig& config, ThreadPool& pool, RunFfn run_ffn, const ModelShard* shard,
         ShardCollectives* comm);

  void run(const OpMoe& moe, const float* x, int64_t rows, float* out);
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return expert_tokens_; }
  size_t workspace_bytes() const;

 private:
  struct Routed {
    int64_t token;  // row of the routed rows
    int expert;     // global expert id
    float weight;   // router weight
  };
  std::vector<Routed> route(const OpMoe& moe, const float* h, int64_t rows);
  void run_expert(const OpFfn& expert, const float* in, const std::vector<int64_t>& pick,
                  float* out);
  void add_shared_expert(const OpMoe& moe, const float* in, int64_t rows, float* acc);
  void run_local(const OpMoe& moe, const float* h, int64_t rows, float* out);
  // Expert parallelism's exchange: rows per peer each way, and what this rank received.
  struct ExpertExchange {
    std::vector<size_t> sent, received;  // rows to / from each rank of the group
    std::vector<float> rows;             // received rows [sum(received), hidden]
    std::vector<int32_t> experts;        // each received row's expert, indexed on this rank
  };
  ExpertExchange dispatch_to_experts(const std::vector<Routed>& routed, const float* h,
                                     int64_t per_rank);
  std::vector<float> run_received(const OpMoe& moe, const ExpertExchange& x);
  void run_expert_parallel(const OpMoe& moe, const float* h, int64_t rows, float* out);

  const ModelConfig& c_;
  ThreadPool& pool_;
  RunFfn run_ffn_;
  const ModelShard* shard_;
  ShardCollectives* comm_;
  std::vector<float> expert_in_, shared_out_, gathered_;
  int64_t expert_tokens_ = 0;
};

}  // namespace infergate
