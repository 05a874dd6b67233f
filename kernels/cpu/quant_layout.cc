#include "kernels/cpu/quant_layout.h"

#include <cstring>

#include "kernels/cpu/block_codes.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/iq4_blocks.h"
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

uint16_t u16_at(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

// Where the code of value k (< 32) of row r lives in a plane format's activation block: the
// byte of each plane and the bit position within it (quant_layout.h).
struct PlaneSlot {
  int64_t nib, cr2, hb1;
  int nib_shift, cr2_shift, hb1_shift;
};
PlaneSlot plane_slot(DType dtype, int k, int64_t r) {
  const int t = k / 4;
  const int64_t lane = 4 * r + k % 4;
  return {32 * (t % 4) + lane,
          plane_cr2_offset(dtype) + 32 * (t / 4) + lane,
          plane_hb1_offset(dtype) + lane,
          t < 4 ? 0 : 4,
          2 * (t % 4),
          t};
}

// The bits of a code each plane holds: NIB its low 4; CR2 bits 4-5 (Q6_K) or 0-1; HB1 bit 4
// (the 5-bit formats) or bit 2 (Q3_K).
int cr2_low_bit(DType dtype) { return dtype == DType::kQ6_K ? 4 : 0; }
int hb1_bit(DType dtype) { return dtype == DType::kQ3_K ? 2 : 4; }

void put_plane_code(DType dtype, uint8_t* planes, int k, int64_t r, int q) {
  const PlaneSlot at = plane_slot(dtype, k, r);
  if (plane_has_nib(dtype)) planes[at.nib] |= uint8_t((q & 15) << at.nib_shift);
  if (plane_has_cr2(dtype)) {
    planes[at.cr2] |= uint8_t(((q >> cr2_low_bit(dtype)) & 3) << at.cr2_shift);
  }
  if (plane_has_hb1(dtype)) planes[at.hb1] |= uint8_t(((q >> hb1_bit(dtype)) & 1) << at.hb1_shift);
}

int plane_code(DType dtype, const uint8_t* planes, int k, int64_t r) {
  const PlaneSlot at = plane_slot(dtype, k, r);
  int q = 0;
  if (plane_has_nib(dtype)) q |= (planes[at.nib] >> at.nib_shift) & 15;
  if (plane_has_cr2(dtype)) q |= ((planes[at.cr2] >> at.cr2_shift) & 3) << cr2_low_bit(dtype);
  if (plane_has_hb1(dtype)) q |= ((planes[at.hb1] >> at.hb1_shift) & 1) << hb1_bit(dtype);
  return q;
}

void pack_plane_block(DType dtype, const uint8_t* block, int64_t r, uint8_t* gb) {
  BlockCodes codes;
  decode_block_codes(dtype, block, codes);
  std::memcpy(gb + 2 * r, &codes.d, 2);
  if (plane_has_min(dtype)) std::memcpy(gb + 16 + 2 * r, &codes.dmin, 2);
  for (int64_t s = 0; s < plane_sub_blocks(dtype); ++s) {
    gb[plane_scale_offset(dtype) + kQuantGroupRows * s + r] = uint8_t(codes.scale[s]);
    if (plane_has_min(dtype)) gb[plane_min_offset(dtype) + kQuantGroupRows * s + r] = codes.min[s];
  }
  uint8_t* planes = gb + quant_group_header_bytes(dtype);
  for (int64_t a = 0; a < plane_activation_blocks(dtype); ++a) {
    for (int k = 0; k < kQuantBlock; ++k) {
      put_plane_code(dtype, planes + a * plane_block_bytes(dtype), k, r,
                     codes.q[kQuantBlock * a + k]);
    }
  }
}

void unpack_plane_block(DType dtype, const uint8_t* gb, int64_t r, uint8_t* block) {
  BlockCodes codes;
  codes.d = u16_at(gb + 2 * r);
  if (plane_has_min(dtype)) codes.dmin = u16_at(gb + 16 + 2 * r);
  for (int64_t s = 0; s < plane_sub_blocks(dtype); ++s) {
    codes.scale[s] = int8_t(gb[plane_scale_offset(dtype) + kQuantGroupRows * s + r]);
    if (plane_has_min(dtype)) codes.min[s] = gb[plane_min_offset(dtype) + kQuantGroupRows * s + r];
  }
  const uint8_t* planes = gb + quant_group_header_bytes(dtype);
  for (int64_t a = 0; a < plane_activation_blocks(dtype); ++a) {
    for (int k = 0; k < kQuantBlock; ++k) {
      codes.q[kQuantBlock * a + k] =
          uint8_t(plane_code(dtype, planes + a * plane_block_bytes(dtype), k, r));
    }
  }
  encode_block_codes(dtype, codes, block);
}

}  // namespace

void plane_row_values(const uint8_t* gb, DType dtype, int64_t a, int r, int16_t* v, float* dw,
                      float* mw) {
  const float d = f16_at(gb + 2 * r);
  const float dmin = plane_has_min(dtype) ? f16_at(gb + 16 + 2 * r) : 0.0f;
  const int64_t sub = plane_sub_blocks(dtype);
  for (int h = 0; h < 2; ++h) {
    // The half's sub-block: 2a + h of sixteen, a of eight, none for the 32-value formats.
    const int64_t s = sub == 16 ? 2 * a + h : a;
    const float scale =
        sub == 0 ? 1.0f : float(int8_t(gb[plane_scale_offset(dtype) + kQuantGroupRows * s + r]));
    const float min =
        sub == 0 ? 1.0f : float(gb[plane_min_offset(dtype) + kQuantGroupRows * s + r]);
    dw[h] = d * scale;
    // Q5_1: + m; Q5_K, Q2_K: - dmin min_s.
    mw[h] = !plane_has_min(dtype) ? 0.0f : dtype == DType::kQ5_1 ? dmin : -dmin * min;
  }
  const uint8_t* planes = gb + quant_group_header_bytes(dtype) + a * plane_block_bytes(dtype);
  const bool levels = dtype == DType::kIQ4_NL || dtype == DType::kIQ4_XS;
  for (int k = 0; k < kQuantBlock; ++k) {
    const int q = plane_code(dtype, planes, k, r);
    v[k] = int16_t(levels ? kIq4Levels[size_t(q)] : q - block_code_zero(dtype));
  }
}

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
      if (has_plane_layout(dtype)) {
        pack_plane_block(dtype, in, r, out);
        continue;
      }
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
      if (has_plane_layout(dtype)) {
        unpack_plane_block(dtype, in, r, out);
        continue;
      }
      for_each_scale_byte(dtype, r, [&](int64_t to, int64_t from) { out[to] = in[from]; });
      if (dtype == DType::kQ4_K) pack_q4_k_scales(in, r, out);
      for_each_quant_byte(dtype, r, [&](int64_t to, int64_t from) {
        out[to] = to_packed(dtype, in[from]);  // the offset is its own inverse
      });
    }
  }
}

}  // namespace infergate::detail
