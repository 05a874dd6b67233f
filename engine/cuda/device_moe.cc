#include "engine/cuda/device_moe.h"

#include "engine/core/cuda_limits.h"
#include "engine/cuda/cuda_weight.h"
#include "kernels/cuda/add.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/moe_routing.h"

namespace infergate::cuda {

static_assert(kCudaMaxExperts == kMoeMaxExperts, "the limits table names the router's bound");

size_t DeviceMoe::workspace_bytes() const {
  size_t total = ids_.bytes() + source_row_.bytes() + permuted_index_.bytes() + offsets_.bytes() +
                 permute_workspace_.bytes();
  for (const auto* b : {&router_logits_, &weights_, &rows_in_, &rows_out_, &shared_out_}) {
    total += b->bytes();
  }
  return total;
}

// Top-k ids and weights per token, then the permutation and its offsets on the host.
void DeviceMoe::route(DeviceGemm& gemm, const OpMoe& moe, const MoeConfig& m, const float* in,
                      int64_t n) {
  const size_t routed = size_t(n * m.top_k);
  float* logits = router_logits_.ensure(size_t(n * m.num_experts));
  gemm.project(in, n, matrix_of(*moe.router), logits);
  moe_topk(logits, n, m.num_experts, m.top_k, m.normalize_top_k, ids_.ensure(routed),
           weights_.ensure(routed), gemm.stream());
  void* workspace =
      permute_workspace_.ensure(moe_permute_workspace_bytes(n, m.top_k, m.num_experts));
  moe_permute(ids_.data(), n, m.top_k, m.num_experts, offsets_.ensure(size_t(m.num_experts) + 1),
              source_row_.ensure(routed), permuted_index_.ensure(routed), workspace, gemm.stream());
  host_offsets_.resize(size_t(m.num_experts) + 1);
  INFERGATE_CUDA_CHECK(cudaMemcpyAsync(host_offsets_.data(), offsets_.data(),
                                       host_offsets_.size() * sizeof(int64_t),
                                       cudaMemcpyDeviceToHost, gemm.stream()));
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(gemm.stream()));
}

void DeviceMoe::run(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe,
                    const ModelConfig& config, const float* in, int64_t n, float* out) {
  const MoeConfig& m = config.moe;
  const int64_t d = config.hidden_size, routed = n * m.top_k;
  route(gemm, moe, m, in, n);
  float* rows_in = rows_in_.ensure(size_t(routed * d));
  float* rows_out = rows_out_.ensure(size_t(routed * d));
  moe_gather_rows(in, source_row_.data(), routed, d, rows_in, gemm.stream());
  for (size_t e = 0; e < moe.experts.size(); ++e) {
    const int64_t first = host_offsets_[e], count = host_offsets_[e + 1] - first;
    const OpFfn& x = moe.experts[e];
    if (count > 0) {
      ffn.run(gemm, matrix_of(*x.gate_up), matrix_of(*x.down), rows_in + first * d, count,
              rows_out + first * d);
    }
  }
  moe_unpermute(rows_out, permuted_index_.data(), weights_.data(), n, m.top_k, d, out,
                gemm.stream());
  if (moe.shared_expert.defined()) {
    float* shared = shared_out_.ensure(size_t(n * d));
    ffn.run(gemm, matrix_of(*moe.shared_expert.gate_up), matrix_of(*moe.shared_expert.down), in, n,
            shared);
    add_inplace(out, shared, n * d, gemm.stream());
  }
}

}  // namespace infergate::cuda
