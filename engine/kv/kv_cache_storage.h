// The memory behind the KV blocks: per layer, one K and one V tensor of
// [num_blocks, block_size, num_kv_heads, head_dim] in the configured KV dtype, and for the scaled
// formats (int8, fp8_e4m3) one fp32 scale per row beside each: [num_blocks, block_size,
// num_kv_heads].
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/model/model_config.h"
#include "kernels/cpu/paged_attention.h"
#include "kernels/tensor.h"

namespace infergate {

// Throws std::out_of_range unless `block` is in a pool of `num_blocks` and a buffer of
// `buffer_bytes` holds exactly one block of `block_nbytes` (a host or a device cache's handoff).
void check_kv_block(int32_t block, int num_blocks, size_t buffer_bytes, size_t block_nbytes);

class KvCacheStorage {
 public:
  KvCacheStorage(const ModelConfig& model, int num_blocks, int block_size, DType dtype);

  // Blocks that fit in `bytes` for this model and dtype (at least 1, at most INT32_MAX).
  static int blocks_for_bytes(const ModelConfig& model, int block_size, DType dtype, int64_t bytes);
  // One token's K and V over every layer, scales included.
  static int64_t bytes_per_token(const ModelConfig& model, DType dtype);

  KvLayerView layer(int i);
  int num_blocks() const { return num_blocks_; }
  size_t nbytes() const;

  // One block's KV as bytes, for handing it to another engine (prefill/decode disaggregation):
  // every layer's K, then every layer's V, each [block_size, num_kv_heads, head_dim] in the KV
  // dtype; then, for the scaled formats, every layer's K scales and every layer's V scales,
  // each [block_size, num_kv_heads] fp32. read_block() and write_block() throw std::out_of_range
  // for a block outside the pool or a buffer of another size.
  size_t block_nbytes() const;
  void read_block(int32_t block, std::span<std::byte> out) const;
  void write_block(int32_t block, std::span<const std::byte> in);

 private:
  std::vector<Tensor> k_, v_;
  std::vector<Tensor> k_scale_, v_scale_;  // scaled formats only
  int num_blocks_;
  int block_size_;
  int num_kv_heads_;
  int head_dim_;
  DType dtype_;

  size_t layer_block_nbytes() const;        // one block of one layer's K (or V)
  size_t layer_block_scale_nbytes() const;  // its scales (0 unless scaled)
  void check_block(int32_t block, size_t buffer_bytes) const;
};

}  // namespace infergate
