#include "engine/cuda/device_kv_cache.h"

#include <stdexcept>
#include <string>

#include "engine/kv/kv_cache_storage.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/write_kv.h"

namespace infergate::cuda {

namespace {

KvDType kv_dtype_of(DType d) {
  switch (d) {
    case DType::kF32:
      return KvDType::kF32;
    case DType::kF16:
      return KvDType::kF16;
    case DType::kBF16:
      return KvDType::kBF16;
    default:
      throw std::invalid_argument(std::string("cuda backend: kv_cache_dtype ") + dtype_name(d) +
                                  " is not supported (allowed: f32, f16, bf16)");
  }
}

}  // namespace

DeviceKvCache::DeviceKvCache(const ModelConfig& model, int num_blocks, int block_size, DType dtype)
    : num_blocks_(num_blocks),
      block_size_(block_size),
      num_kv_heads_(model.num_kv_heads),
      head_dim_(model.head_dim),
      dtype_(dtype) {
  kv_dtype_of(dtype);  // refuses before allocating
  const int64_t elements = int64_t(num_blocks) * block_size * model.kv_size();
  for (int l = 0; l < model.num_layers; ++l) {
    k_.emplace_back(dtype_bytes(dtype, elements));
    v_.emplace_back(dtype_bytes(dtype, elements));
  }
}

void DeviceKvCache::write(int layer, const float* k, const float* v, const int64_t* slot_mapping,
                          int64_t num_tokens, cudaStream_t stream) {
  const int64_t width = int64_t(num_kv_heads_) * head_dim_;
  void* kc = k_[size_t(layer)].data();
  void* vc = v_[size_t(layer)].data();
  switch (dtype_) {
    case DType::kF32:
      write_kv(k, v, slot_mapping, num_tokens, width, static_cast<float*>(kc),
               static_cast<float*>(vc), stream);
      break;
    case DType::kBF16:
      write_kv_bf16(k, v, slot_mapping, num_tokens, width, static_cast<uint16_t*>(kc),
                    static_cast<uint16_t*>(vc), stream);
      break;
    default:
      write_kv_f16(k, v, slot_mapping, num_tokens, width, static_cast<uint16_t*>(kc),
                   static_cast<uint16_t*>(vc), stream);
  }
}

DeviceKvLayer DeviceKvCache::layer(int i) const {
  DeviceKvLayer view;
  view.k = k_[size_t(i)].data();
  view.v = v_[size_t(i)].data();
  view.dtype = kv_dtype_of(dtype_);
  view.num_blocks = num_blocks_;
  view.block_size = block_size_;
  view.num_kv_heads = num_kv_heads_;
  view.head_dim = head_dim_;
  return view;
}

size_t DeviceKvCache::nbytes() const {
  size_t total = 0;
  for (const DeviceBytes& b : k_) total += b.bytes();
  for (const DeviceBytes& b : v_) total += b.bytes();
  return total;
}

size_t DeviceKvCache::layer_block_nbytes() const {
  return dtype_bytes(dtype_, int64_t(block_size_) * num_kv_heads_ * head_dim_);
}

size_t DeviceKvCache::block_nbytes() const { return 2 * k_.size() * layer_block_nbytes(); }

void DeviceKvCache::check_block(int32_t block, size_t buffer_bytes) const {
  check_kv_block(block, num_blocks_, buffer_bytes, block_nbytes());
}

void DeviceKvCache::read_block(int32_t block, std::span<std::byte> out, cudaStream_t stream) const {
  check_block(block, out.size());
  const size_t n = layer_block_nbytes();
  std::byte* to = out.data();
  for (const std::vector<DeviceBytes>* side : {&k_, &v_}) {
    for (const DeviceBytes& layer : *side) {
      INFERGATE_CUDA_CHECK(
          cudaMemcpyAsync(to, static_cast<const std::byte*>(layer.data()) + size_t(block) * n, n,
                          cudaMemcpyDeviceToHost, stream));
      to += n;
    }
  }
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void DeviceKvCache::write_block(int32_t block, std::span<const std::byte> in, cudaStream_t stream) {
  check_block(block, in.size());
  const size_t n = layer_block_nbytes();
  const std::byte* from = in.data();
  for (std::vector<DeviceBytes>* side : {&k_, &v_}) {
    for (DeviceBytes& layer : *side) {
      INFERGATE_CUDA_CHECK(
          cudaMemcpyAsync(static_cast<std::byte*>(layer.data()) + size_t(block) * n, from, n,
                          cudaMemcpyHostToDevice, stream));
      from += n;
    }
  }
  // `in` may be freed when this returns: the copies must have read it.
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace infergate::cuda
