// The paged KV cache in device memory: per layer one K and one V array of
// [num_blocks, block_size, num_kv_heads, head_dim] in the configured dtype, the same layout and
// slot numbering as engine/kv/kv_cache_storage.h, so the scheduler's block tables mean the same.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
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
  // One block as bytes in the host KV cache's layout (engine/kv/kv_cache_storage.h: every
  // layer's K block, then every layer's V block), for handing a prefix to another engine
  // (disaggregated prefill and decode). Copied through the host, in order with `stream`'s work.
  // Throw std::out_of_range for a block outside the pool or a buffer of another size.
  size_t block_nbytes() const;
  void read_block(int32_t block, std::span<std::byte> out, cudaStream_t stream) const;
  void write_block(int32_t block, std::span<const std::byte> in, cudaStream_t stream);

 private:
  size_t layer_block_nbytes() const;
  void check_block(int32_t block, size_t buffer_bytes) const;

  std::vector<DeviceBytes> k_, v_;
  int num_blocks_, block_size_, num_kv_heads_, head_dim_;
  DType dtype_;
};

}  // namespace infergate::cuda
