// Shared by the attention kernels: reading the paged KV cache (addresses through a block table,
// vector loads converted to fp32) and the host-side checks of the arguments.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/cuda/attention_batch.h"

namespace infergate::cuda::detail {

constexpr int kMaxHeadDim = 256;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Element index of (position p, kv_head) in a cache laid out [blocks, block_size, kv_heads, D],
// given the block table entry that holds p.
__device__ inline int64_t kv_row_offset(int32_t block, int64_t p, int block_size, int num_kv_heads,
                                        int kv_head, int head_dim) {
  const int64_t slot = int64_t(block) * block_size + p % block_size;
  return (slot * num_kv_heads + kv_head) * head_dim;
}

template <int kBytes>
struct RawOf;
template <>
struct RawOf<4> {
  using type = unsigned int;
};
template <>
struct RawOf<8> {
  using type = uint2;
};
template <>
struct RawOf<16> {
  using type = uint4;
};

constexpr int kv_element_bytes(KvDType d) { return d == KvDType::kF32 ? 4 : 2; }

// kVec consecutive cache elements as one aligned load (a raw register value), and their fp32
// values. Loading and converting are separate so that a loop can issue several loads first.
template <KvDType kD, int kVec>
struct KvVec {
  static constexpr int kCount = kVec;
  static constexpr int kElemBytes = kv_element_bytes(kD);
  static constexpr int kBytes = kVec * kElemBytes;
  using Raw = typename RawOf<kBytes>::type;

  // Elements [elem, elem + kVec) of base; the byte offset must be a multiple of kBytes.
  __device__ static Raw load(const void* base, int64_t elem) {
    return __ldg(reinterpret_cast<const Raw*>(static_cast<const char*>(base) + elem * kElemBytes));
  }

  __device__ static void to_f32(const Raw& raw, float (&out)[kVec]) {
    uint32_t words[kBytes / 4];
    memcpy(words, &raw, kBytes);
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      if constexpr (kD == KvDType::kF32) {
        out[e] = __uint_as_float(words[e]);
      } else {
        // Little-endian: element e is the low half of word e / 2 when e is even.
        const uint32_t bits = (words[e / 2] >> (16 * (e % 2))) & 0xffffu;
        if constexpr (kD == KvDType::kBF16) {
          out[e] = __uint_as_float(bits << 16);
        } else {
          out[e] = __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
        }
      }
    }
  }
};

// The preconditions a launcher can check on the host (it cannot see the device-side sequences).
inline void check_attention_args(const DeviceAttentionBatch& batch, const DeviceKvLayer& cache,
                                 int num_heads, const char* who) {
  const auto fail = [who](const char* what) {
    throw std::invalid_argument(std::string(who) + ": " + what);
  };
  if (cache.head_dim <= 0 || cache.head_dim % 2 != 0 || cache.head_dim > kMaxHeadDim) {
    fail("head_dim must be even and at most 256");
  }
  if (cache.num_kv_heads <= 0 || num_heads <= 0 || num_heads % cache.num_kv_heads != 0) {
    fail("num_heads must be a positive multiple of num_kv_heads");
  }
  if (cache.block_size <= 0) fail("block_size must be positive");
  if (batch.num_seqs > 65535) fail("at most 65535 sequences per call (the grid's z dimension)");
  const uintptr_t pair_bytes = 2u * uintptr_t(kv_element_bytes(cache.dtype));
  if ((reinterpret_cast<uintptr_t>(cache.k) | reinterpret_cast<uintptr_t>(cache.v)) % pair_bytes) {
    fail("the K and V caches must be aligned to two elements");
  }
}

}  // namespace infergate::cuda::detail
