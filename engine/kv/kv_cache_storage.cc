#include "engine/kv/kv_cache_storage.h"

#include <algorithm>
#include <cstdint>

namespace infergate {

KvCacheStorage::KvCacheStorage(const ModelConfig& model, int num_blocks, int block_size,
                               DType dtype)
    : num_blocks_(num_blocks),
      block_size_(block_size),
      num_kv_heads_(model.num_kv_heads),
      head_dim_(model.head_dim),
      dtype_(dtype) {
  const std::vector<int64_t> shape = {num_blocks, block_size, model.num_kv_heads, model.head_dim};
  for (int l = 0; l < model.num_layers; ++l) {
    k_.push_back(Tensor::zeros(dtype, shape));
    v_.push_back(Tensor::zeros(dtype, shape));
  }
}

int KvCacheStorage::blocks_for_bytes(const ModelConfig& model, int block_size, DType dtype,
                                     int64_t bytes) {
  const int64_t per_block =
      model.kv_bytes_per_token(int(dtype_bytes(dtype, 1))) * int64_t(block_size);
  // Clamped to int: the engine then refuses a pool larger than the machine's memory by name.
  const int64_t blocks = std::clamp<int64_t>(bytes / per_block, 1, INT32_MAX);
  return int(blocks);
}

KvLayerView KvCacheStorage::layer(int i) {
  KvLayerView view;
  view.k = k_[size_t(i)].mutable_raw();
  view.v = v_[size_t(i)].mutable_raw();
  view.dtype = dtype_;
  view.num_blocks = num_blocks_;
  view.block_size = block_size_;
  view.num_kv_heads = num_kv_heads_;
  view.head_dim = head_dim_;
  return view;
}

size_t KvCacheStorage::nbytes() const {
  size_t total = 0;
  for (const Tensor& t : k_) total += t.nbytes();
  for (const Tensor& t : v_) total += t.nbytes();
  return total;
}

}  // namespace infergate
