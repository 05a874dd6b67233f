#include "engine/kv/kv_cache_storage.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

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
    if (!is_scaled_kv(dtype)) continue;
    const std::vector<int64_t> scales = {num_blocks, block_size, model.num_kv_heads};
    k_scale_.push_back(Tensor::zeros(DType::kF32, scales));
    v_scale_.push_back(Tensor::zeros(DType::kF32, scales));
  }
}

int64_t KvCacheStorage::bytes_per_token(const ModelConfig& model, DType dtype) {
  const int64_t scales = is_scaled_kv(dtype) ? 2 * int64_t(model.num_layers) * model.num_kv_heads *
                                                   int64_t(sizeof(float))
                                             : 0;
  return model.kv_bytes_per_token(int(dtype_bytes(dtype, 1))) + scales;
}

int KvCacheStorage::blocks_for_bytes(const ModelConfig& model, int block_size, DType dtype,
                                     int64_t bytes) {
  const int64_t per_block = bytes_per_token(model, dtype) * int64_t(block_size);
  // Clamped to int: the engine then refuses a pool larger than the machine's memory by name.
  const int64_t blocks = std::clamp<int64_t>(bytes / per_block, 1, INT32_MAX);
  return int(blocks);
}

KvLayerView KvCacheStorage::layer(int i) {
  KvLayerView view;
  view.k = k_[size_t(i)].mutable_raw();
  view.v = v_[size_t(i)].mutable_raw();
  if (is_scaled_kv(dtype_)) {
    view.k_scale = k_scale_[size_t(i)].mutable_data<float>();
    view.v_scale = v_scale_[size_t(i)].mutable_data<float>();
  }
  view.dtype = dtype_;
  view.num_blocks = num_blocks_;
  view.block_size = block_size_;
  view.num_kv_heads = num_kv_heads_;
  view.head_dim = head_dim_;
  return view;
}

size_t KvCacheStorage::layer_block_nbytes() const {
  return dtype_bytes(dtype_, int64_t(block_size_) * num_kv_heads_ * head_dim_);
}

size_t KvCacheStorage::layer_block_scale_nbytes() const {
  return is_scaled_kv(dtype_) ? size_t(block_size_) * size_t(num_kv_heads_) * sizeof(float) : 0;
}

size_t KvCacheStorage::block_nbytes() const {
  return 2 * k_.size() * (layer_block_nbytes() + layer_block_scale_nbytes());
}

void check_kv_block(int32_t block, int num_blocks, size_t buffer_bytes, size_t block_nbytes) {
  if (block < 0 || block >= num_blocks) {
    throw std::out_of_range("KV block " + std::to_string(block) + " is outside the pool of " +
                            std::to_string(num_blocks));
  }
  if (buffer_bytes != block_nbytes) {
    throw std::out_of_range("a KV block is " + std::to_string(block_nbytes) + " bytes here, not " +
                            std::to_string(buffer_bytes) +
                            " (another model, block size or KV dtype?)");
  }
}

void KvCacheStorage::check_block(int32_t block, size_t buffer_bytes) const {
  check_kv_block(block, num_blocks_, buffer_bytes, block_nbytes());
}

void KvCacheStorage::read_block(int32_t block, std::span<std::byte> out) const {
  check_block(block, out.size());
  std::byte* to = out.data();
  const auto copy_out = [&](const std::vector<Tensor>& side, size_t n) {
    for (const Tensor& t : side) {
      std::memcpy(to, static_cast<const std::byte*>(t.raw()) + size_t(block) * n, n);
      to += n;
    }
  };
  copy_out(k_, layer_block_nbytes());
  copy_out(v_, layer_block_nbytes());
  copy_out(k_scale_, layer_block_scale_nbytes());
  copy_out(v_scale_, layer_block_scale_nbytes());
}

void KvCacheStorage::write_block(int32_t block, std::span<const std::byte> in) {
  check_block(block, in.size());
  const std::byte* from = in.data();
  const auto copy_in = [&](std::vector<Tensor>& side, size_t n) {
    for (Tensor& t : side) {
      std::memcpy(static_cast<std::byte*>(t.mutable_raw()) + size_t(block) * n, from, n);
      from += n;
    }
  };
  copy_in(k_, layer_block_nbytes());
  copy_in(v_, layer_block_nbytes());
  copy_in(k_scale_, layer_block_scale_nbytes());
  copy_in(v_scale_, layer_block_scale_nbytes());
}

size_t KvCacheStorage::nbytes() const {
  size_t total = 0;
  for (const Tensor& t : k_) total += t.nbytes();
  for (const Tensor& t : v_) total += t.nbytes();
  for (const Tensor& t : k_scale_) total += t.nbytes();
  for (const Tensor& t : v_scale_) total += t.nbytes();
  return total;
}

}  // namespace infergate
