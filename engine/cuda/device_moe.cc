#include "engine/cuda/device_moe.h"

#include <algorithm>

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
  for (const auto* b : {&router_logits_, &weights_, &rows_in_, &rows_out_, &shared_out_, &received_,
                        &results_, &slice_, &gathered_}) {
    total += b->bytes();
  }
  return total;
}

// Top-k ids and weights per token, then the permutation and its offsets on the host.
void DeviceMoe::route(DeviceGemm& gemm, const OpMoe& moe, const MoeConfig& m, const float* in,
                      int64_t n) {
  const size_t routed = size_t(n * m.top_k);
  host_offsets_.assign(size_t(m.num_experts) + 1, 0);
  if (n == 0) return;  // an expert-parallel rank's empty slice
  float* logits = router_logits_.ensure(size_t(n * m.num_experts));
  gemm.project(in, n, matrix_of(*moe.router), logits);
  moe_topk(logits, n, m.num_experts, m.top_k, m.normalize_top_k, ids_.ensure(routed),
           weights_.ensure(routed), gemm.stream());
  void* workspace =
      permute_workspace_.ensure(moe_permute_workspace_bytes(n, m.top_k, m.num_experts));
  moe_permute(ids_.data(), n, m.top_k, m.num_experts, offsets_.ensure(size_t(m.num_experts) + 1),
              source_row_.ensure(routed), permuted_index_.ensure(routed), workspace, gemm.stream());
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

namespace {

std::vector<size_t> floats_of(const std::vector<int64_t>& rows, int64_t d) {
  std::vector<size_t> out;
  for (int64_t r : rows) out.push_back(size_t(r * d));
  return out;
}

// Sums of consecutive runs of `per` counts: rows per rank from rows per (rank, expert).
std::vector<int64_t> per_rank(const std::vector<int64_t>& counts, size_t per) {
  std::vector<int64_t> out(counts.size() / per, 0);
  for (size_t i = 0; i < counts.size(); ++i) out[i / per] += counts[i];
  return out;
}

}  // namespace

void DeviceMoe::run_received(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe,
                             const std::vector<int64_t>& counts, int64_t d, const float* rows,
                             float* results) {
  const size_t local = moe.experts.size();
  int64_t first = 0;
  for (size_t i = 0; i < counts.size(); ++i) {  // rank-major: each sender's rows by expert
    const OpFfn& x = moe.experts[i % local];
    if (counts[i] > 0) {
      ffn.run(gemm, matrix_of(*x.gate_up), matrix_of(*x.down), rows + first * d, counts[i],
              results + first * d);
    }
    first += counts[i];
  }
  expert_tokens_ += first;
}

void DeviceMoe::run_expert_parallel(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe,
                                    const ModelConfig& config, const ModelShard& shard,
                                    ShardCollectives& comm, const float* in, int64_t n,
                                    float* out) {
  const MoeConfig& m = config.moe;
  const int64_t d = config.hidden_size, group = shard.group_size, chunk = (n + group - 1) / group;
  const int64_t lo = std::min(n, shard.group_rank * chunk), mine = std::min(n, lo + chunk) - lo;
  const int64_t routed = mine * m.top_k;
  const size_t local = moe.experts.size();
  const float* h = in + lo * d;
  cudaStream_t stream = gemm.stream();
  route(gemm, moe, m, h, mine);
  float* rows_in = rows_in_.ensure(size_t(std::max<int64_t>(routed, 1) * d));
  if (routed > 0) moe_gather_rows(h, source_row_.data(), routed, d, rows_in, stream);

  // Rows per (destination rank, its expert), then the same from every sender.
  std::vector<int64_t> sent(size_t(m.num_experts)), received(sent.size());
  for (size_t e = 0; e < sent.size(); ++e) sent[e] = host_offsets_[e + 1] - host_offsets_[e];
  comm.exchange_counts(sent.data(), received.data(), local);
  const std::vector<size_t> sent_floats = floats_of(per_rank(sent, local), d),
                            received_floats = floats_of(per_rank(received, local), d);
  int64_t total = 0;
  for (int64_t r : received) total += r;
  float* rows = received_.ensure(size_t(std::max<int64_t>(total, 1) * d));
  float* results = results_.ensure(size_t(std::max<int64_t>(total, 1) * d));
  comm.all_to_all_v(rows_in, sent_floats.data(), rows, received_floats.data());
  run_received(gemm, ffn, moe, received, d, rows, results);
  float* rows_out = rows_out_.ensure(size_t(std::max<int64_t>(routed, 1) * d));
  comm.all_to_all_v(results, received_floats.data(), rows_out, sent_floats.data());

  // This rank's slice, padded to `chunk` rows of zeros, then every rank's slice.
  float* slice = slice_.ensure(size_t(chunk * d));
  INFERGATE_CUDA_CHECK(cudaMemsetAsync(slice, 0, size_t(chunk * d) * sizeof(float), stream));
  if (mine > 0) {
    moe_unpermute(rows_out, permuted_index_.data(), weights_.data(), mine, m.top_k, d, slice,
                  stream);
    if (moe.shared_expert.defined()) {
      float* shared = shared_out_.ensure(size_t(mine * d));
      ffn.run(gemm, matrix_of(*moe.shared_expert.gate_up), matrix_of(*moe.shared_expert.down), h,
              mine, shared);
      add_inplace(slice, shared, mine * d, stream);
    }
  }
  float* gathered = gathered_.ensure(size_t(chunk * d * group));
  comm.all_gather(slice, size_t(chunk * d), gathered);
  INFERGATE_CUDA_CHECK(cudaMemcpyAsync(out, gathered, size_t(n * d) * sizeof(float),
                                       cudaMemcpyDeviceToDevice, stream));
}

}  // namespace infergate::cuda
