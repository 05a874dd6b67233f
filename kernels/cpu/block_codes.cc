#include "kernels/cpu/block_codes.h"

#include <cstring>

#include "kernels/cpu/q4_k_block.h"

namespace infergate {

namespace {

uint16_t u16_at(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
void put_u16(uint16_t v, uint8_t* p) { std::memcpy(p, &v, 2); }

// Q5_0/Q5_1: value j < 16 is the low nibble of qs[j] and bit j of qh, 16 + j the high nibble
// and bit 16 + j.
void decode_five_bits(const uint8_t* qh_bytes, const uint8_t* qs, uint8_t* q) {
  uint32_t qh;
  std::memcpy(&qh, qh_bytes, 4);
  for (int j = 0; j < 16; ++j) {
    q[j] = uint8_t((qs[j] & 15) | ((qh >> j) & 1) << 4);
    q[j + 16] = uint8_t((qs[j] >> 4) | ((qh >> (j + 16)) & 1) << 4);
  }
}
void encode_five_bits(const uint8_t* q, uint8_t* qh_bytes, uint8_t* qs) {
  uint32_t qh = 0;
  for (int j = 0; j < 16; ++j) {
    qs[j] = uint8_t((q[j] & 15) | (q[j + 16] & 15) << 4);
    qh |= uint32_t(q[j] >> 4 & 1) << j | uint32_t(q[j + 16] >> 4 & 1) << (j + 16);
  }
  std::memcpy(qh_bytes, &qh, 4);
}

// Q2_K and Q3_K: the 2-bit field of value v is bits 2j of qs[32h + l] (h = v / 128,
// j = v % 128 / 32, l = v % 32).
int crumb_byte(int v) { return 32 * (v / 128) + v % 32; }
int crumb_shift(int v) { return 2 * (v % 128 / 32); }

// IQ4_NL, and IQ4_XS's sub-blocks: value j < 16 the low nibble of qs[j], 16 + j the high one.
void decode_nibbles(const uint8_t* qs, uint8_t* q) {
  for (int j = 0; j < 16; ++j) {
    q[j] = qs[j] & 15;
    q[j + 16] = qs[j] >> 4;
  }
}
void encode_nibbles(const uint8_t* q, uint8_t* qs) {
  for (int j = 0; j < 16; ++j) qs[j] = uint8_t((q[j] & 15) | (q[j + 16] & 15) << 4);
}

// Q3_K's sixteen 6-bit scales in 12 bytes: low nibbles in bytes 0-7 (scales 8-15 in the high
// nibbles), the top two bits of scale s at bit 2 (s / 4) of byte 8 + s % 4.
int q3_k_scale(const uint8_t* packed, int s) {
  const int low = s < 8 ? packed[s] & 15 : packed[s - 8] >> 4;
  return low | ((packed[8 + s % 4] >> (2 * (s / 4))) & 3) << 4;
}
void put_q3_k_scale(int code, int s, uint8_t* packed) {
  packed[s % 8] |= uint8_t((code & 15) << (s < 8 ? 0 : 4));
  packed[8 + s % 4] |= uint8_t(((code >> 4) & 3) << (2 * (s / 4)));
}

void decode_q2_k(const uint8_t* b, BlockCodes& c) {
  for (int s = 0; s < 16; ++s) {
    c.scale[s] = int8_t(b[s] & 15);
    c.min[s] = b[s] >> 4;
  }
  for (int v = 0; v < 256; ++v) c.q[v] = (b[16 + crumb_byte(v)] >> crumb_shift(v)) & 3;
  c.d = u16_at(b + 80);
  c.dmin = u16_at(b + 82);
}
void encode_q2_k(const BlockCodes& c, uint8_t* b) {
  for (int s = 0; s < 16; ++s) b[s] = uint8_t((c.scale[s] & 15) | (c.min[s] & 15) << 4);
  for (int v = 0; v < 256; ++v) b[16 + crumb_byte(v)] |= uint8_t((c.q[v] & 3) << crumb_shift(v));
  put_u16(c.d, b + 80);
  put_u16(c.dmin, b + 82);
}

// Q3_K: the 2-bit field, plus 4 where bit 4h + j of hmask[l] is set.
void decode_q3_k(const uint8_t* b, BlockCodes& c) {
  for (int v = 0; v < 256; ++v) {
    const int high = (b[v % 32] >> (4 * (v / 128) + v % 128 / 32)) & 1;
    c.q[v] = uint8_t(((b[32 + crumb_byte(v)] >> crumb_shift(v)) & 3) | high << 2);
  }
  for (int s = 0; s < 16; ++s) c.scale[s] = int8_t(q3_k_scale(b + 96, s) - 32);
  c.d = u16_at(b + 108);
}
void encode_q3_k(const BlockCodes& c, uint8_t* b) {
  for (int v = 0; v < 256; ++v) {
    b[v % 32] |= uint8_t((c.q[v] >> 2 & 1) << (4 * (v / 128) + v % 128 / 32));
    b[32 + crumb_byte(v)] |= uint8_t((c.q[v] & 3) << crumb_shift(v));
  }
  for (int s = 0; s < 16; ++s) put_q3_k_scale(c.scale[s] + 32, s, b + 96);
  put_u16(c.d, b + 108);
}

// Q5_K: Q4_K's packed scales and minimums; nibble of qs[32 (s / 2) + l] (high for odd s) plus
// 16 times bit s of qh[l].
void decode_q5_k(const uint8_t* b, BlockCodes& c) {
  c.d = u16_at(b);
  c.dmin = u16_at(b + 2);
  for (int s = 0; s < 8; ++s) {
    uint8_t scale;
    q4_k_scale_min(b + 4, s, &scale, &c.min[s]);
    c.scale[s] = int8_t(scale);
    for (int l = 0; l < 32; ++l) {
      const int nibble = (b[48 + 32 * (s / 2) + l] >> (4 * (s % 2))) & 15;
      c.q[32 * s + l] = uint8_t(nibble | ((b[16 + l] >> s) & 1) << 4);
    }
  }
}
void encode_q5_k(const BlockCodes& c, uint8_t* b) {
  put_u16(c.d, b);
  put_u16(c.dmin, b + 2);
  uint8_t scales[8];
  for (int s = 0; s < 8; ++s) scales[s] = uint8_t(c.scale[s]);
  q4_k_pack_scale_min(scales, c.min, b + 4);
  for (int s = 0; s < 8; ++s) {
    for (int l = 0; l < 32; ++l) {
      const uint8_t q = c.q[32 * s + l];
      b[48 + 32 * (s / 2) + l] |= uint8_t((q & 15) << (4 * (s % 2)));
      b[16 + l] |= uint8_t((q >> 4 & 1) << s);
    }
  }
}

// Q6_K: nibble of ql[64h + l + 32 (j % 2)] (high for j >= 2) and bits 2j of qh[32h + l].
int q6_k_ql(int v) { return 64 * (v / 128) + v % 32 + 32 * (v % 128 / 32 % 2); }
int q6_k_ql_shift(int v) { return 4 * (v % 128 / 32 / 2); }
void decode_q6_k(const uint8_t* b, BlockCodes& c) {
  for (int v = 0; v < 256; ++v) {
    const int nibble = (b[q6_k_ql(v)] >> q6_k_ql_shift(v)) & 15;
    c.q[v] = uint8_t(nibble | ((b[128 + crumb_byte(v)] >> crumb_shift(v)) & 3) << 4);
  }
  std::memcpy(c.scale, b + 192, 16);
  c.d = u16_at(b + 208);
}
void encode_q6_k(const BlockCodes& c, uint8_t* b) {
  for (int v = 0; v < 256; ++v) {
    b[q6_k_ql(v)] |= uint8_t((c.q[v] & 15) << q6_k_ql_shift(v));
    b[128 + crumb_byte(v)] |= uint8_t((c.q[v] >> 4 & 3) << crumb_shift(v));
  }
  std::memcpy(b + 192, c.scale, 16);
  put_u16(c.d, b + 208);
}

void decode_iq4_xs(const uint8_t* b, BlockCodes& c) {
  c.d = u16_at(b);
  const uint16_t scales_h = u16_at(b + 2);
  for (int s = 0; s < 8; ++s) {
    const int code = ((b[4 + s / 2] >> (4 * (s % 2))) & 15) | ((scales_h >> (2 * s)) & 3) << 4;
    c.scale[s] = int8_t(code - 32);
    decode_nibbles(b + 8 + 16 * s, c.q + 32 * s);
  }
}
void encode_iq4_xs(const BlockCodes& c, uint8_t* b) {
  put_u16(c.d, b);
  uint16_t scales_h = 0;
  for (int s = 0; s < 8; ++s) {
    const int code = c.scale[s] + 32;
    b[4 + s / 2] |= uint8_t((code & 15) << (4 * (s % 2)));
    scales_h |= uint16_t(((code >> 4) & 3) << (2 * s));
    encode_nibbles(c.q + 32 * s, b + 8 + 16 * s);
  }
  put_u16(scales_h, b + 2);
}

}  // namespace

void decode_block_codes(DType dtype, const uint8_t* block, BlockCodes& codes) {
  codes = BlockCodes{};
  switch (dtype) {
    case DType::kQ5_0:
      codes.d = u16_at(block);
      return decode_five_bits(block + 2, block + 6, codes.q);
    case DType::kQ5_1:
      codes.d = u16_at(block);
      codes.dmin = u16_at(block + 2);
      return decode_five_bits(block + 4, block + 8, codes.q);
    case DType::kQ2_K:
      return decode_q2_k(block, codes);
    case DType::kQ3_K:
      return decode_q3_k(block, codes);
    case DType::kQ5_K:
      return decode_q5_k(block, codes);
    case DType::kQ6_K:
      return decode_q6_k(block, codes);
    case DType::kIQ4_NL:
      codes.d = u16_at(block);
      return decode_nibbles(block + 2, codes.q);
    case DType::kIQ4_XS:
      return decode_iq4_xs(block, codes);
    default:
      return;
  }
}

void encode_block_codes(DType dtype, const BlockCodes& codes, uint8_t* block) {
  std::memset(block, 0, dtype_bytes(dtype, dtype_block_elems(dtype)));
  switch (dtype) {
    case DType::kQ5_0:
      put_u16(codes.d, block);
      return encode_five_bits(codes.q, block + 2, block + 6);
    case DType::kQ5_1:
      put_u16(codes.d, block);
      put_u16(codes.dmin, block + 2);
      return encode_five_bits(codes.q, block + 4, block + 8);
    case DType::kQ2_K:
      return encode_q2_k(codes, block);
    case DType::kQ3_K:
      return encode_q3_k(codes, block);
    case DType::kQ5_K:
      return encode_q5_k(codes, block);
    case DType::kQ6_K:
      return encode_q6_k(codes, block);
    case DType::kIQ4_NL:
      put_u16(codes.d, block);
      return encode_nibbles(codes.q, block + 2);
    case DType::kIQ4_XS:
      return encode_iq4_xs(codes, block);
    default:
      return;
  }
}

}  // namespace infergate
