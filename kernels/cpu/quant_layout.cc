#include "kernels/cpu/quant_layout.h"

#include <cstring>

#include "kernels/cpu/q4_k_block.h"

namespace infergate::detail {

namespace {

// Calls f(row_offset_in_block, group_offset) for every quant byte of one row's block: the byte
// at row_offset in the file's block and where it lives in the group's block.
template <typename F>
void for_each_quant_byte(DType dtype, int64_t r, F&& f) {
  if (dtype == DType::kQ4_K) {
    for (int64_t j = 0; j < kQ4_KBlock / 2; ++j) {
      f(16 + j, kQ4_KGroupHeader + ((j / 4) * kQuantGroupRows + r) * 4 + j % 4);
    }
    return;
  }
  const int64_t header = quant_group_header_bytes(dtype), scales = header / kQuantGroupRows;
  const int64_t bytes = has_q8_layout(dtype) ? kQuantBlock : kQuantBlock / 2;
  for (int64_t j = 0; j < bytes; ++j) {
    f(scales + j, header + ((j / 4) * kQuantGroupRows + r) * 4 + j % 4);
  }
}

// Calls f(row_offset_in_block, group_offset) for the row's fp16 d (and Q4_1's fp16 m, Q4_K's
// fp16 dmin).
template <typename F>
void for_each_scale_byte(DType dtype, int64_t r, F&& f) {
  for (int64_t b = 0; b < 2; ++b) f(b, 2 * r + b);
  if (dtype == DType::kQ4_1 || dtype == DType::kQ4_K) {
    for (int64_t b = 0; b < 2; ++b) f(2 + b, 2 * kQuantGroupRows + 2 * r + b);
  }
}

// Q4_K's 6-bit scales and minimums: packed in the file's 12 bytes, one byte each in the group.
int64_t q4_k_scale_offset(int64_t r, int s, bool min) {
  return 4 * kQuantGroupRows + (min ? 8 * kQuantGroupRows : 0) + s * kQuantGroupRows + r;
}

void unpack_q4_k_scales(const uint8_t* block, int64_t r, uint8_t* group_block) {
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    q4_k_scale_min(block + 4, s, group_block + q4_k_scale_offset(r, s, false),
                   group_block + q4_k_scale_offset(r, s, true));
  }
}

void pack_q4_k_scales(const uint8_t* group_block, int64_t r, uint8_t* block) {
  uint8_t scales[kQ4_KSubBlocks], mins[kQ4_KSubBlocks];
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    scales[s] = group_block[q4_k_scale_offset(r, s, false)];
    mins[s] = group_block[q4_k_scale_offset(r, s, true)];
  }
  q4_k_pack_scale_min(scales, mins, block + 4);
}

// z of the layout: Q8_0 bytes are stored offset by 128, the nibble formats as they are.
uint8_t to_packed(DType dtype, uint8_t b) { return has_q8_layout(dtype) ? uint8_t(b ^ 0x80) : b; }

}  // namespace

void pack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst) {
  const int64_t blocks = k / dtype_block_elems(dtype);
  const size_t bb = dtype_bytes(dtype, dtype_block_elems(dtype));
  const size_t group_block = size_t(quant_group_block_bytes(dtype));
  // Padding rows stay zero: their scale 0 makes every product 0.
  std::memset(dst, 0, group_block * size_t(quant_groups(n) * blocks));
  for (int64_t row = 0; row < n; ++row) {
    const int64_t g = row / kQuantGroupRows, r = row % kQuantGroupRows;
    for (int64_t b = 0; b < blocks; ++b) {
      const uint8_t* in = src + (row * blocks + b) * bb;
      uint8_t* out = dst + (g * blocks + b) * group_block;
      for_each_scale_byte(dtype, r, [&](int64_t from, int64_t to) { out[to] = in[from]; });
      if (dtype == DType::kQ4_K) unpack_q4_k_scales(in, r, out);
      for_each_quant_byte(dtype, r,
                          [&](int64_t from, int64_t to) { out[to] = to_packed(dtype, in[from]); });
    }
  }
}

void unpack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst) {
  const int64_t blocks = k / dtype_block_elems(dtype);
  const size_t bb = dtype_bytes(dtype, dtype_block_elems(dtype));
  const size_t group_block = size_t(quant_group_block_bytes(dtype));
  for (int64_t row = 0; row < n; ++row) {
    const int64_t g = row / kQuantGroupRows, r = row % kQuantGroupRows;
    for (int64_t b = 0; b < blocks; ++b) {
      const uint8_t* in = src + (g * blocks + b) * group_block;
      uint8_t* out = dst + (row * blocks + b) * bb;
      for_each_scale_byte(dtype, r, [&](int64_t to, int64_t from) { out[to] = in[from]; });
      if (dtype == DType::kQ4_K) pack_q4_k_scales(in, r, out);
      for_each_quant_byte(dtype, r, [&](int64_t to, int64_t from) {
        out[to] = to_packed(dtype, in[from]);  // the offset is its own inverse
      });
    }
  }
}

}  // namespace infergate::detail
