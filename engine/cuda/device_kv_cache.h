// The paged KV cache in device memory: per layer one K and one V array of
// [num_blocks, block_size, num_kv_heads, head_dim] in the configured dtype, the same layout and
// slot numbering as engine/kv/kv_cache_storage.h, so the scheduler's block tables mean the same.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "engine/model/model_config.h"
#include "kernels/cuda/attention_batch.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/tensor.h"

namespace infergate::cuda {

class DeviceKvCache {
 public:
  // Throws std::invalid_argument for a dtype the GPU kernels do not store (the block formats).
  DeviceKvCache(const ModelConfig& model, int num_blocks, int block_size, DType dtype);

  // Writes k and v ([num_tokens, num_kv_heads * head_dim], fp32, device) of layer `layer` into
  // their slots (device slot_mapping; negative slots are skipped).
  void write(int layer, const float* k, const float* v, const int64_t* slot_mapping,
             int64_t num_tokens, cudaStream_t stream);
  DeviceKvLayer layer(int i) const;
  size_t nbytes() const;

 private:
  std::vector<DeviceBytes> k_, v_;
  int num_blocks_, block_size_, num_kv_heads_, head_dim_;
  DType dtype_;
};

}  // namespace infergate::cuda
