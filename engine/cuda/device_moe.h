// A mixture-of-experts FFN on the GPU (forward_ops.h's moe_ffn), as the CPU's
// (engine/forward/cpu/cpu_moe.h): the router's top-k per token, the routed rows grouped by expert
// (a stable permutation), each expert once over its contiguous rows, the weighted sum back in
// token order, plus the shared expert. With expert parallelism the grouped rows go to the ranks
// holding their experts and back (docs/parallelism.md).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_gemm.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/forward_ops.h"
#include "engine/model/model_config.h"
#include "engine/model/model_shard.h"

namespace infergate::cuda {

class DeviceMoe {
 public:
  // out [n, hidden] = the FFN of `in` [n, hidden] (out must not alias in). Waits for the
  // expert row counts (E + 1 integers) to reach the host: the per-expert GEMMs' sizes.
  void run(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe, const ModelConfig& config,
           const float* in, int64_t n, float* out);
  // Expert parallelism: this rank holds experts [group_rank * E/G, ...) of the E the router
  // chooses from. It routes its 1/G slice of `in`'s n rows, sends each routed row to its
  // expert's rank (rows grouped by expert are grouped by rank too), runs its experts over what
  // it receives, sends the results back, combines its slice and all-gathers the slices into
  // `out`. Every rank of the group calls it with the same n.
  void run_expert_parallel(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe,
                           const ModelConfig& config, const ModelShard& shard,
                           ShardCollectives& comm, const float* in, int64_t n, float* out);
  size_t workspace_bytes() const;
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return expert_tokens_; }

 private:
  // The rows received from every rank, run by this rank's experts: `counts` [G * E/G] says how
  // many rows of each local expert each rank sent, in rank order.
  void run_received(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe,
                    const std::vector<int64_t>& counts, int64_t d, const float* rows,
                    float* results);
  void route(DeviceGemm& gemm, const OpMoe& moe, const MoeConfig& m, const float* in, int64_t n);
  GrowableDeviceBuffer<float> router_logits_, weights_, rows_in_, rows_out_, shared_out_;
  GrowableDeviceBuffer<float> received_, results_, slice_, gathered_;  // expert parallelism
  GrowableDeviceBuffer<int32_t> ids_, source_row_, permuted_index_;
  GrowableDeviceBuffer<int64_t> offsets_;
  GrowableDeviceBuffer<unsigned char> permute_workspace_;
  std::vector<int64_t> host_offsets_;
  int64_t expert_tokens_ = 0;
};

}  // namespace infergate::cuda
