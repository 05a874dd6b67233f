#include "engine/cuda/cuda_executor.h"

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "engine/core/batch_builder.h"
#include "engine/core/cuda_limits.h"
#include "engine/core/executor_registry.h"
#include "engine/cuda/cuda_forward.h"
#include "engine/cuda/device_kv_cache.h"
#include "engine/cuda/owned_stream.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device.h"

namespace infergate {

namespace {

cuda::CudaGraphSettings graph_settings(const ModelConfig& model, const EngineConfig& c) {
  if (!c.cuda_graphs) return {};
  return {c.max_num_seqs, c.max_model_len > 0 ? c.max_model_len : model.max_position_embeddings};
}

class CudaExecutor final : public Executor {
 public:
  CudaExecutor(const ModelWeights& weights, const EngineConfig& config, int num_kv_blocks)
      : block_size_(config.block_size),
        // Speculation verifies drafts on the host: every draft row's logits come back.
        samples_(config.cuda_sampling && !config.speculates()),
        cache_(weights.config, num_kv_blocks, config.block_size, config.kv_cache_dtype),
        model_(weights,
               config.cuda_gemm == CudaGemm::kInfergate ? cuda::GemmChoice::kInfergate
                                                        : cuda::GemmChoice::kCublas,
               stream_.get(), graph_settings(weights.config, config)) {}

  std::vector<float> execute(const SchedulerOutput& out) override {
    return model_.forward(build_batch(out, block_size_), cache_);
  }

  bool samples_itself() const override { return samples_; }

  std::vector<int32_t> execute_and_sample(const SchedulerOutput& out,
                                          const std::vector<SamplingDraw>& draws) override {
    std::vector<cuda::DeviceSamplingParams> params;
    for (const SamplingDraw& d : draws) {
      params.push_back({d.temperature, d.top_k, d.top_p, d.uniform});
    }
    return model_.forward_and_sample(build_batch(out, block_size_), cache_, params);
  }

  // Disaggregation's KV handoff, staged through the host (the transfer reads host memory).
  size_t kv_block_nbytes() const override { return cache_.block_nbytes(); }
  void read_kv_block(int32_t block, std::span<std::byte> out) const override {
    cache_.read_block(block, out, stream_.get());
  }
  void write_kv_block(int32_t block, std::span<const std::byte> in) override {
    cache_.write_block(block, in, stream_.get());
  }

  MemoryLedger memory() const override { return model_.memory(cache_); }

 private:
  int block_size_;
  bool samples_;
  cuda::OwnedStream stream_;
  cuda::DeviceKvCache cache_;
  cuda::CudaForward model_;
};

}  // namespace

std::unique_ptr<Executor> make_cuda_executor(const ModelWeights& weights,
                                             const EngineConfig& config, int num_kv_blocks) {
  // A combination the backend cannot run is named first, on any machine.
  check_cuda_limits(CudaRun(&config, &weights.config, weights.output_weight().dtype()));
  std::string why;
  if (cuda::cuda_device_count(&why) == 0) {
    throw std::runtime_error("backend \"cuda\": no CUDA device is usable here (" + why +
                             "); use backend \"cpu\" on this machine");
  }
  INFERGATE_CUDA_CHECK(cudaSetDevice(0));
  return std::make_unique<CudaExecutor>(weights, config, num_kv_blocks);
}

void register_cuda_executor() { register_executor(ExecutorKind::kCuda, make_cuda_executor); }

}  // namespace infergate
