#include "kernels/cpu/convert.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels/cpu/fp8_blocks.h"
#include "kernels/cpu/iq4_blocks.h"
#include "kernels/cpu/k_quant_blocks.h"
#include "kernels/cpu/q4_k_block.h"
#include "kernels/cpu/q5_blocks.h"

namespace infergate {

float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      exp = 127 - 15 + 1;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {

// llama.cpp's quantize_row_q8_0_ref: d = amax / 127, q = round(x / d), half away from zero.
void quantize_block_q8_0(const float* x, uint8_t* out) {
  float amax = 0;
  for (int i = 0; i < kQuantBlock; ++i) amax = std::max(amax, std::fabs(x[i]));
  const float d = amax / 127.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  const uint16_t d16 = f32_to_f16(d);
  std::memcpy(out, &d16, 2);
  for (int i = 0; i < kQuantBlock; ++i) out[2 + i] = uint8_t(int8_t(std::lround(x[i] * id)));
}

// llama.cpp's quantize_row_q4_0_ref: d = (the value of largest magnitude) / -8, so that value
// maps to nibble 0 exactly; q = min(15, trunc(x / d + 8.5)).
void quantize_block_q4_0(const float* x, uint8_t* out) {
  float amax = 0, max = 0;
  for (int i = 0; i < kQuantBlock; ++i) {
    if (amax < std::fabs(x[i])) {
      amax = std::fabs(x[i]);
      max = x[i];
    }
  }
  const float d = max / -8.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  const uint16_t d16 = f32_to_f16(d);
  std::memcpy(out, &d16, 2);
  constexpr int kHalf = kQuantBlock / 2;
  for (int j = 0; j < kHalf; ++j) {
    const int lo = std::min(15, int(int8_t(x[j] * id + 8.5f)));
    const int hi = std::min(15, int(int8_t(x[kHalf + j] * id + 8.5f)));
    out[2 + j] = uint8_t(lo | (hi << 4));
  }
}

// llama.cpp's quantize_row_q4_1_ref: the block's range in 15 steps from its minimum,
// d = (max - min) / 15, m = min, q = min(15, trunc((x - min) / d + 0.5)).
void quantize_block_q4_1(const float* x, uint8_t* out) {
  float min = std::numeric_limits<float>::max(), max = -std::numeric_limits<float>::max();
  for (int i = 0; i < kQuantBlock; ++i) {
    min = std::min(min, x[i]);
    max = std::max(max, x[i]);
  }
  const float d = (max - min) / 15.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  const uint16_t d16 = f32_to_f16(d), m16 = f32_to_f16(min);
  std::memcpy(out, &d16, 2);
  std::memcpy(out + 2, &m16, 2);
  constexpr int kHalf = kQuantBlock / 2;
  for (int j = 0; j < kHalf; ++j) {
    const int lo = std::min(15, int(int8_t((x[j] - min) * id + 0.5f)));
    const int hi = std::min(15, int(int8_t((x[kHalf + j] - min) * id + 0.5f)));
    out[4 + j] = uint8_t(lo | (hi << 4));
  }
}

// Per-channel int8: one scale d = amax / 127 (as fp16) for the whole row, repeated in every
// Q8_0 block; q = round(x / d) with the stored d, within [-127, 127].
void quantize_row_w8a8(const float* x, int64_t count, uint8_t* out) {
  float amax = 0;
  for (int64_t i = 0; i < count; ++i) amax = std::max(amax, std::fabs(x[i]));
  const uint16_t d16 = f32_to_f16(amax / 127.0f);
  const float d = f16_to_f32(d16);
  const float id = d != 0 ? 1.0f / d : 0.0f;
  for (int64_t b = 0; b < count / kQuantBlock; ++b, out += kQ8_0BlockBytes) {
    std::memcpy(out, &d16, 2);
    for (int i = 0; i < kQuantBlock; ++i) {
      const long q = std::clamp(std::lround(x[b * kQuantBlock + i] * id), -127L, 127L);
      out[2 + i] = uint8_t(int8_t(q));
    }
  }
}

// The block quantizer of each llama.cpp format beyond Q8_0, Q4_0 and Q4_1 (which are above).
using BlockQuantizer = void (*)(const float*, uint8_t*);
BlockQuantizer block_quantizer(DType dtype) {
  switch (dtype) {
    case DType::kQ8_0:
      return &quantize_block_q8_0;
    case DType::kQ4_0:
      return &quantize_block_q4_0;
    case DType::kQ4_1:
      return &quantize_block_q4_1;
    case DType::kQ4_K:
      return &quantize_block_q4_k;
    case DType::kQ5_0:
      return &quantize_block_q5_0;
    case DType::kQ5_1:
      return &quantize_block_q5_1;
    case DType::kQ2_K:
      return &quantize_block_q2_k;
    case DType::kQ3_K:
      return &quantize_block_q3_k;
    case DType::kQ5_K:
      return &quantize_block_q5_k;
    case DType::kQ6_K:
      return &quantize_block_q6_k;
    case DType::kIQ4_NL:
      return &quantize_block_iq4_nl;
    case DType::kIQ4_XS:
      return &quantize_block_iq4_xs;
    case DType::kFP8:
      return &quantize_block_fp8;
    default:
      return nullptr;
  }
}

}  // namespace

void dequantize_block(const uint8_t* block, DType dtype, float* out) {
  switch (dtype) {
    case DType::kQ4_K:
      return dequantize_block_q4_k(block, out);
    case DType::kQ5_0:
      return dequantize_block_q5_0(block, out);
    case DType::kQ5_1:
      return dequantize_block_q5_1(block, out);
    case DType::kQ2_K:
      return dequantize_block_q2_k(block, out);
    case DType::kQ3_K:
      return dequantize_block_q3_k(block, out);
    case DType::kQ5_K:
      return dequantize_block_q5_k(block, out);
    case DType::kQ6_K:
      return dequantize_block_q6_k(block, out);
    case DType::kIQ4_NL:
      return dequantize_block_iq4_nl(block, out);
    case DType::kIQ4_XS:
      return dequantize_block_iq4_xs(block, out);
    case DType::kFP8:
      return dequantize_block_fp8(block, out);
    default:
      break;
  }
  uint16_t d16;
  std::memcpy(&d16, block, 2);
  const float d = f16_to_f32(d16);
  if (dtype == DType::kQ8_0 || dtype == DType::kW8A8) {
    const int8_t* q = reinterpret_cast<const int8_t*>(block + 2);
    for (int i = 0; i < kQuantBlock; ++i) out[i] = d * float(q[i]);
    return;
  }
  constexpr int kHalf = kQuantBlock / 2;
  if (dtype == DType::kQ4_1) {
    uint16_t m16;
    std::memcpy(&m16, block + 2, 2);
    const float m = f16_to_f32(m16);
    for (int j = 0; j < kHalf; ++j) {
      out[j] = float(block[4 + j] & 15) * d + m;
      out[kHalf + j] = float(block[4 + j] >> 4) * d + m;
    }
    return;
  }
  for (int j = 0; j < kHalf; ++j) {
    out[j] = d * float((block[2 + j] & 15) - 8);
    out[kHalf + j] = d * float((block[2 + j] >> 4) - 8);
  }
}

void to_f32(const Tensor& t, int64_t offset, int64_t count, float* out) {
  switch (t.dtype()) {
    case DType::kF32:
      std::memcpy(out, t.data<float>() + offset, size_t(count) * 4);
      return;
    case DType::kF16: {
      const uint16_t* p = t.data<uint16_t>() + offset;
      for (int64_t i = 0; i < count; ++i) out[i] = f16_to_f32(p[i]);
      return;
    }
    case DType::kBF16: {
      const uint16_t* p = t.data<uint16_t>() + offset;
      for (int64_t i = 0; i < count; ++i) out[i] = bf16_to_f32(p[i]);
      return;
    }
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    case DType::kW8A8:
    case DType::kFP8:
    INFERGATE_CASE_PLANE_DTYPES : {
      const int64_t block = dtype_block_elems(t.dtype());
      if (offset % block || count % block) {
        throw std::invalid_argument(std::string(dtype_name(t.dtype())) +
                                    " conversion must cover whole " + std::to_string(block) +
                                    "-element blocks");
      }
      const uint8_t* p = t.data<uint8_t>() + dtype_bytes(t.dtype(), offset);
      const size_t block_bytes = dtype_bytes(t.dtype(), block);
      for (int64_t b = 0; b < count / block; ++b, p += block_bytes) {
        dequantize_block(p, t.dtype(), out + b * block);
      }
      return;
    }
    case DType::kI8:
    case DType::kF8E4M3:
      break;
  }
  throw std::invalid_argument(std::string("no conversion from ") + dtype_name(t.dtype()) +
                              ": a KV cache format, whose rows carry their own scales");
}

void from_f32(const float* in, int64_t count, DType dtype, void* out) {
  switch (dtype) {
    case DType::kF32:
      std::memcpy(out, in, size_t(count) * 4);
      return;
    case DType::kF16: {
      uint16_t* p = static_cast<uint16_t*>(out);
      for (int64_t i = 0; i < count; ++i) p[i] = f32_to_f16(in[i]);
      return;
    }
    case DType::kBF16: {
      uint16_t* p = static_cast<uint16_t*>(out);
      for (int64_t i = 0; i < count; ++i) p[i] = f32_to_bf16(in[i]);
      return;
    }
    case DType::kW8A8:
      return quantize_row_w8a8(in, count, static_cast<uint8_t*>(out));
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    case DType::kFP8:
    INFERGATE_CASE_PLANE_DTYPES : {
      uint8_t* p = static_cast<uint8_t*>(out);
      const int64_t block = dtype_block_elems(dtype);
      const size_t block_bytes = dtype_bytes(dtype, block);
      const int64_t blocks = int64_t(dtype_bytes(dtype, count) / block_bytes);
      const BlockQuantizer quantize = block_quantizer(dtype);
      for (int64_t b = 0; b < blocks; ++b, p += block_bytes) quantize(in + b * block, p);
      return;
    }
    case DType::kI8:
    case DType::kF8E4M3:
      break;
  }
  throw std::invalid_argument(std::string("no conversion to ") + dtype_name(dtype) +
                              ": a KV cache format, whose rows carry their own scales");
}

Tensor convert_tensor(const Tensor& t, DType dtype) {
  Tensor out = Tensor::zeros(dtype, t.shape());
  const int64_t n = t.numel();
  if (dtype == DType::kW8A8) {  // a scale per row: converted row by row
    const int64_t k = t.shape().empty() ? n : t.shape().back();
    std::vector<float> row(static_cast<size_t>(k));
    for (int64_t off = 0; off < n; off += k) {
      to_f32(t, off, k, row.data());
      from_f32(row.data(), k, dtype,
               static_cast<uint8_t*>(out.mutable_raw()) + dtype_bytes(dtype, off));
    }
    return out;
  }
  if (dtype == DType::kFP8 && t.shape().size() == 2) {  // a matrix: one scale per 128x128 tile
    const int64_t rows = t.dim(0), k = t.dim(1);
    dtype_bytes(dtype, k);  // refuses rows that are not whole blocks, before the f32 copy
    std::vector<float> values(static_cast<size_t>(n));
    to_f32(t, 0, n, values.data());
    quantize_fp8_tiles(values.data(), rows, k, static_cast<uint8_t*>(out.mutable_raw()));
    return out;
  }
  constexpr int64_t kChunk = 1 << 16;  // multiple of every block size, bounded scratch
  std::vector<float> buf(static_cast<size_t>(std::min(n, kChunk)));
  for (int64_t off = 0; off < n; off += kChunk) {
    const int64_t c = std::min(kChunk, n - off);
    to_f32(t, off, c, buf.data());
    from_f32(buf.data(), c, dtype,
             static_cast<uint8_t*>(out.mutable_raw()) + dtype_bytes(dtype, off));
  }
  return out;
}

}  // namespace infergate
