#include "engine/model/awq_layout.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

constexpr int64_t kPack = 8;  // 4-bit fields per int32

struct BlockHeader {
  uint16_t d = 0, m = 0;
};

BlockHeader header_of(const uint8_t* block) {
  BlockHeader h;
  std::memcpy(&h.d, block, 2);
  std::memcpy(&h.m, block + 2, 2);
  return h;
}

int nibble(const uint8_t* block, int64_t j) {
  constexpr int64_t kHalf = kQuantBlock / 2;
  return j < kHalf ? block[4 + j] & 15 : block[4 + j - kHalf] >> 4;
}

// Sets the 4-bit field of output column o in a packed [rows, out / 8] int32 matrix.
void put_field(std::vector<int32_t>& packed, int64_t out, int64_t row, int64_t o, int value) {
  const int64_t p = o / kPack;
  int j = 0;
  while (kAwqOrder[j] != o % kPack) ++j;
  uint32_t& word = reinterpret_cast<uint32_t&>(packed[size_t(row * (out / kPack) + p)]);
  word |= uint32_t(value) << (4 * j);
}

int get_field(const std::vector<int32_t>& packed, int64_t out, int64_t row, int64_t o) {
  const int64_t p = o / kPack;
  int j = 0;
  while (kAwqOrder[j] != o % kPack) ++j;
  return int((uint32_t(packed[size_t(row * (out / kPack) + p)]) >> (4 * j)) & 15);
}

[[noreturn]] void not_int4(const std::string& name, const std::string& why) {
  throw std::invalid_argument(name + " is not group-wise INT4 for the AWQ layout: " + why);
}

}  // namespace

AwqTensors pack_awq(const Tensor& q, int64_t group, const std::string& name) {
  if (q.dtype() != DType::kQ4_1 || q.shape().size() != 2) not_int4(name, "not a Q4_1 matrix");
  AwqTensors a{q.dim(1), q.dim(0), group, {}, {}, {}};
  if (a.out % kPack != 0) not_int4(name, std::to_string(a.out) + " rows, not a multiple of 8");
  if (group % kQuantBlock != 0 || a.in % group != 0) {
    not_int4(name, "rows of " + std::to_string(a.in) + " values are not whole groups of " +
                       std::to_string(group) + " (use GGUF, or a group that divides them)");
  }
  const int64_t groups = a.in / group, blocks = a.in / kQuantBlock;
  a.qweight.assign(size_t(a.in * a.out / kPack), 0);
  a.qzeros.assign(size_t(groups * a.out / kPack), 0);
  a.scales.assign(size_t(groups * a.out), 0);
  const uint8_t* base = q.data<uint8_t>();
  for (int64_t o = 0; o < a.out; ++o) {
    const uint8_t* row = base + o * blocks * int64_t(kQ4_1BlockBytes);
    for (int64_t g = 0; g < groups; ++g) {
      const BlockHeader h = header_of(row + g * (group / kQuantBlock) * int64_t(kQ4_1BlockBytes));
      const float d = f16_to_f32(h.d);
      const int z = d > 0 ? int(std::nearbyint(-f16_to_f32(h.m) / d)) : -1;
      if (z < 0 || z > 15 || f32_to_f16(-d * float(z)) != h.m) {
        not_int4(name, "row " + std::to_string(o) + " group " + std::to_string(g) +
                           " has no integer zero point");
      }
      a.scales[size_t(g * a.out + o)] = h.d;
      put_field(a.qzeros, a.out, g, o, z);
      for (int64_t i = g * group; i < (g + 1) * group; ++i) {
        const uint8_t* block = row + (i / kQuantBlock) * int64_t(kQ4_1BlockBytes);
        const BlockHeader bh = header_of(block);
        if (bh.d != h.d || bh.m != h.m) {
          not_int4(name, "row " + std::to_string(o) + " group " + std::to_string(g) +
                             " has more than one scale");
        }
        put_field(a.qweight, a.out, i, o, nibble(block, i % kQuantBlock));
      }
    }
  }
  return a;
}

Tensor unpack_awq(const AwqTensors& a) {
  Tensor q = Tensor::zeros(DType::kQ4_1, {a.out, a.in});
  uint8_t* base = q.mutable_data<uint8_t>();
  const int64_t blocks = a.in / kQuantBlock;
  constexpr int64_t kHalf = kQuantBlock / 2;
  for (int64_t o = 0; o < a.out; ++o) {
    for (int64_t b = 0; b < blocks; ++b) {
      uint8_t* block = base + (o * blocks + b) * int64_t(kQ4_1BlockBytes);
      const int64_t g = b * kQuantBlock / a.group;
      const uint16_t d16 = a.scales[size_t(g * a.out + o)];
      const int z = get_field(a.qzeros, a.out, g, o);
      const uint16_t m16 = f32_to_f16(-f16_to_f32(d16) * float(z));
      std::memcpy(block, &d16, 2);
      std::memcpy(block + 2, &m16, 2);
      for (int64_t j = 0; j < kHalf; ++j) {
        const int64_t i = b * kQuantBlock + j;
        block[4 + j] = uint8_t(get_field(a.qweight, a.out, i, o) |
                               (get_field(a.qweight, a.out, i + kHalf, o) << 4));
      }
    }
  }
  return q;
}

}  // namespace infergate
