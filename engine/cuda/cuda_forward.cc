#include "engine/cuda/cuda_forward.h"

#include <algorithm>
#include <stdexcept>

#include "common/util/nvtx_range.h"
#include "engine/core/batch_padding.h"

namespace infergate::cuda {

namespace {

// Copies device data into `host` (its size says how much) and waits: kernel faults of the whole
// step surface here, named.
template <typename T>
void download(const T* device, std::vector<T>& host, cudaStream_t stream) {
  if (!host.empty()) {
    INFERGATE_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, host.size() * sizeof(T),
                                         cudaMemcpyDeviceToHost, stream));
  }
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

CudaForward::CudaForward(const ModelWeights& weights, GemmChoice gemm, cudaStream_t stream,
                         CudaGraphSettings graphs, const ModelShard* shard, ShardCollectives* comm)
    : config_(weights.config),
      stream_(stream),
      shard_(shard),
      comm_(comm),
      ops_(weights.config, gemm, stream, shard, comm),
      model_(weights, ops_, shard) {
  if (graphs.max_batch <= 0) return;
  graphs_ = std::make_unique<DecodeGraphs>(graphs.max_batch);
  graph_context_bound_ = graphs.max_context_len;
}

size_t CudaForward::workspace_bytes() const {
  return ops_.workspace_bytes() + logits_.bytes() + gathered_logits_.bytes() +
         sample_workspace_.bytes() + tokens_.bytes() + sampling_.bytes();
}

// The step's kernels, after its inputs are on the device.
void CudaForward::run_step() {
  model_.embed();
  model_.run_layers();
  model_.logits_to(logits_.data());
}

void CudaForward::compute_logits(const BatchInput& batch, DeviceKvCache& cache) {
  ops_.bind_cache(&cache);
  const int64_t size =
      graphs_ && is_decode_only(batch) ? graphs_->size_for(int64_t(batch.sequences.size())) : 0;
  if (size == 0) {  // eager
    ops_.set_decode_context_bound(0);
    const int64_t rows = int64_t(batch.logits_rows.size());
    logits_.ensure(size_t(rows * config_.vocab_size));
    model_.begin(batch, nullptr);
    run_step();
    return;
  }
  // A graph's buffers must not move between capture and replay: everything grows here, before.
  const BatchInput padded = pad_decode_batch(batch, size);
  logits_.ensure(size_t(size * config_.vocab_size));
  ops_.set_decode_context_bound(graph_context_bound_);
  model_.begin(padded, nullptr);
  graphs_->run(
      size, stream_, [&] { run_step(); },
      [this] { return ops_.workspace_bytes() + logits_.bytes(); });
}

std::vector<float> CudaForward::forward(const BatchInput& batch, DeviceKvCache& cache) {
  NvtxRange range("forward");
  compute_logits(batch, cache);
  return download_logits(batch);
}

std::vector<float> CudaForward::download_logits(const BatchInput& batch) {
  const int64_t rows = int64_t(batch.logits_rows.size()), part = config_.vocab_size;
  if (!shard_ || !shard_->tensor_parallel) {
    std::vector<float> logits(size_t(rows * part));
    download(logits_.data(), logits, stream_);
    return logits;
  }
  const size_t local = size_t(rows * part);
  float* gathered = gathered_logits_.ensure(local * size_t(shard_->group_size));
  comm_->all_gather(logits_.data(), local, gathered);
  std::vector<float> host(local * size_t(shard_->group_size));
  download(gathered, host, stream_);
  std::vector<float> logits(size_t(rows * shard_->full_vocab));
  assemble_vocab_parts(host.data(), rows, part, *shard_, logits.data());
  return logits;
}

std::vector<float> CudaForward::run_stage(const BatchInput& batch, DeviceKvCache& cache,
                                          const float* hidden_in, float* hidden_out) {
  NvtxRange range("forward");
  ops_.bind_cache(&cache);
  ops_.set_decode_context_bound(0);
  logits_.ensure(batch.logits_rows.size() * size_t(config_.vocab_size));
  model_.begin(batch, nullptr);
  const int64_t n = batch.num_tokens();
  const size_t bytes = size_t(n * config_.hidden_size) * sizeof(float);
  if (hidden_in) {
    INFERGATE_CUDA_CHECK(
        cudaMemcpyAsync(model_.hidden(n), hidden_in, bytes, cudaMemcpyHostToDevice, stream_));
  } else {
    model_.embed();
  }
  model_.run_layers();
  if (!hidden_out) {
    model_.logits_to(logits_.data());
    return download_logits(batch);
  }
  INFERGATE_CUDA_CHECK(
      cudaMemcpyAsync(hidden_out, model_.hidden(n), bytes, cudaMemcpyDeviceToHost, stream_));
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return {};
}

std::vector<int32_t> CudaForward::forward_and_sample(
    const BatchInput& batch, DeviceKvCache& cache,
    const std::vector<DeviceSamplingParams>& params) {
  if (shard_ && shard_->tensor_parallel) {
    throw std::logic_error("cuda forward: a tensor-parallel rank holds part of each logits row");
  }
  NvtxRange range("forward");
  compute_logits(batch, cache);
  const int64_t rows = int64_t(batch.logits_rows.size()), vocab = config_.vocab_size;
  int32_t* tokens = tokens_.ensure(size_t(rows));
  const bool greedy = std::all_of(params.begin(), params.end(), [](const DeviceSamplingParams& p) {
    return !(p.temperature > 0.0f) || p.top_k == 1;
  });
  if (greedy) {  // no sort needed
    argmax_rows(logits_.data(), rows, vocab, tokens, stream_);
  } else {
    void* workspace = sample_workspace_.ensure(sample_rows_workspace_bytes(rows, vocab));
    sample_rows(logits_.data(), sampling_.upload(params, stream_), rows, vocab, tokens, workspace,
                stream_);
  }
  std::vector<int32_t> out(static_cast<size_t>(rows));
  download(tokens, out, stream_);
  return out;
}

}  // namespace infergate::cuda
