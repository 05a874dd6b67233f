#include "kernels/cpu/quant_layout.h"

#include <cstring>

namespace infergate::detail {

namespace {

// Calls f(row_offset_in_block, group_offset) for every quant byte of one row's block: the byte
// at row_offset in the file's block and where it lives in the group's block.
template <typename F>
void for_each_quant_byte(DType dtype, int64_t r, F&& f) {
  const int64_t header = quant_group_header_bytes(dtype), scales = header / kQuantGroupRows;
  const int64_t bytes = dtype == DType::kQ8_0 ? kQuantBlock : kQuantBlock / 2;
  for (int64_t j = 0; j < bytes; ++j) {
    f(scales + j, header + ((j / 4) * kQuantGroupRows + r) * 4 + j % 4);
  }
}

// Calls f(row_offset_in_block, group_offset) for the row's fp16 d (and Q4_1's fp16 m).
template <typename F>
void for_each_scale_byte(DType dtype, int64_t r, F&& f) {
  for (int64_t b = 0; b < 2; ++b) f(b, 2 * r + b);
  if (dtype == DType::kQ4_1) {
    for (int64_t b = 0; b < 2; ++b) f(2 + b, 2 * kQuantGroupRows + 2 * r + b);
  }
}

// z of the layout: Q8_0 bytes are stored offset by 128, Q4_0 and Q4_1 nibbles as they are.
uint8_t to_packed(DType dtype, uint8_t b) { return dtype == DType::kQ8_0 ? uint8_t(b ^ 0x80) : b; }

}  // namespace

void pack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst) {
  const int64_t blocks = k / kQuantBlock;
  const size_t bb = dtype_bytes(dtype, kQuantBlock);
  const size_t group_block = bb * kQuantGroupRows;
  // Padding rows stay zero: their scale 0 makes every product 0.
  std::memset(dst, 0, group_block * size_t(quant_groups(n) * blocks));
  for (int64_t row = 0; row < n; ++row) {
    const int64_t g = row / kQuantGroupRows, r = row % kQuantGroupRows;
    for (int64_t b = 0; b < blocks; ++b) {
      const uint8_t* in = src + (row * blocks + b) * bb;
      uint8_t* out = dst + (g * blocks + b) * group_block;
      for_each_scale_byte(dtype, r, [&](int64_t from, int64_t to) { out[to] = in[from]; });
      for_each_quant_byte(dtype, r,
                          [&](int64_t from, int64_t to) { out[to] = to_packed(dtype, in[from]); });
    }
  }
}

void unpack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst) {
  const int64_t blocks = k / kQuantBlock;
  const size_t bb = dtype_bytes(dtype, kQuantBlock);
  const size_t group_block = bb * kQuantGroupRows;
  for (int64_t row = 0; row < n; ++row) {
    const int64_t g = row / kQuantGroupRows, r = row % kQuantGroupRows;
    for (int64_t b = 0; b < blocks; ++b) {
      const uint8_t* in = src + (g * blocks + b) * group_block;
      uint8_t* out = dst + (row * blocks + b) * bb;
      for_each_scale_byte(dtype, r, [&](int64_t to, int64_t from) { out[to] = in[from]; });
      for_each_quant_byte(dtype, r, [&](int64_t to, int64_t from) {
        out[to] = to_packed(dtype, in[from]);  // the offset is its own inverse
      });
    }
  }
}

}  // namespace infergate::detail
