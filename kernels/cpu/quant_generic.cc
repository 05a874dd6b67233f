// The portable kernels of quantized `linear`: the fallback on any CPU (on aarch64, where the CPU
// lacks the dot-product extension). Plain loops with int32 block sums over the grouped layout
// (quant_layout.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/quant_kernels.h"
#include "kernels/cpu/quant_layout.h"

namespace infergate::detail {

namespace {

constexpr int kBlock = static_cast<int>(kQuantBlock);
constexpr int kRows = static_cast<int>(kQuantGroupRows);

void quantize_row(const float* x, int64_t k, int8_t* q, float* d, int32_t* s) {
  for (int64_t b = 0; b < k / kBlock; ++b) {
    const float* xb = x + b * kBlock;
    float amax = 0;
    for (int i = 0; i < kBlock; ++i) amax = std::max(amax, std::fabs(xb[i]));
    const float scale = amax / 127.0f;
    const float inv = scale != 0 ? 1.0f / scale : 0.0f;
    int32_t sum = 0;
    for (int i = 0; i < kBlock; ++i) {
      const auto v = static_cast<int8_t>(std::nearbyint(xb[i] * inv));
      q[b * kBlock + i] = v;
      sum += v;
    }
    d[b] = scale;
    s[b] = sum;
  }
}

// f16 value number `index` of a group block's header (d of row r: r; m or dmin of row r: 8 + r).
float header_value(const uint8_t* gb, int index) {
  uint16_t h;
  std::memcpy(&h, gb + 2 * index, 2);
  return f16_to_f32(h);
}

// Row r's 32 weights of one Q4_K sub-block s as nibbles, with their scale and (negated) minimum.
void q4_k_row_values(const uint8_t* gb, int s, int r, int8_t* out, float* dw, float* mw) {
  *dw = header_value(gb, r) * float(gb[4 * kRows + kRows * s + r]);
  *mw = -header_value(gb, kRows + r) * float(gb[12 * kRows + kRows * s + r]);
  const uint8_t* quads = gb + kQ4_KGroupHeader + 256 * (s / 2);
  for (int j = 0; j < kBlock; ++j) {
    out[j] = static_cast<int8_t>((quads[((j / 4) * kRows + r) * 4 + j % 4] >> (4 * (s % 2))) & 15);
  }
}

// Row r's 32 weights of activation block b of the group at `group` as int8, in k order, with
// w = dw q + mw: Q8_0, W8A8 and Q4_0 signed (mw = 0), Q4_1 and Q4_K the nibbles as they are.
void row_values(const uint8_t* group, DType dtype, int64_t b, int r, int8_t* out, float* dw,
                float* mw) {
  if (dtype == DType::kQ4_K) {
    const int64_t sub = kQ4_KBlock / kQuantBlock;
    return q4_k_row_values(group + (b / sub) * quant_group_block_bytes(dtype), int(b % sub), r, out,
                           dw, mw);
  }
  const uint8_t* gb = group + b * quant_group_block_bytes(dtype);
  *dw = header_value(gb, r);
  *mw = dtype == DType::kQ4_1 ? header_value(gb, kRows + r) : 0.0f;
  const uint8_t* quads = gb + quant_group_header_bytes(dtype);
  for (int j = 0; j < kBlock; ++j) {
    if (has_q8_layout(dtype)) {
      out[j] = static_cast<int8_t>(quads[((j / 4) * kRows + r) * 4 + j % 4] ^ 0x80);
    } else {
      const int byte = j % 16;
      const uint8_t packed = quads[((byte / 4) * kRows + r) * 4 + byte % 4];
      const int nibble = j < 16 ? packed & 15 : packed >> 4;
      out[j] = static_cast<int8_t>(dtype == DType::kQ4_1 ? nibble : nibble - 8);
    }
  }
}

// The plane formats (quant_layout.h): per 16-value half h, dw[h] times the integer dot product
// plus mw[h] times the half's activation sum, each scaled by the block's d_x.
void dot_plane_groups(const int8_t* xq, const float* xd, int64_t m, const uint8_t* w, DType dtype,
                      int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  const int64_t group_bytes = quant_group_bytes(dtype, blocks * kQuantBlock);
  const int64_t per_format_block = plane_activation_blocks(dtype);
  int16_t values[kBlock];
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    for (int r = 0; r < valid; ++r) {
      for (int64_t i = 0; i < m; ++i) c[i * ldc + g * kRows + r] = 0;
      for (int64_t b = 0; b < blocks; ++b) {
        float dw[2], mw[2];
        const uint8_t* gb =
            w + g * group_bytes + (b / per_format_block) * quant_group_block_bytes(dtype);
        plane_row_values(gb, dtype, b % per_format_block, r, values, dw, mw);
        for (int64_t i = 0; i < m; ++i) {
          const int8_t* xb = xq + (i * blocks + b) * kBlock;
          float acc = 0;
          for (int h = 0; h < 2; ++h) {
            int32_t dot = 0, sum = 0;
            for (int j = 16 * h; j < 16 * h + 16; ++j) {
              dot += int32_t(values[j]) * int32_t(xb[j]);
              sum += xb[j];
            }
            acc += dw[h] * static_cast<float>(dot) + mw[h] * static_cast<float>(sum);
          }
          c[i * ldc + g * kRows + r] += xd[i * blocks + b] * acc;
        }
      }
    }
  }
}

void dot_groups(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m, const uint8_t* w,
                DType dtype, int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  if (has_plane_layout(dtype))
    return dot_plane_groups(xq, xd, m, w, dtype, blocks, groups, rows, c, ldc);
  const int64_t group_bytes = quant_group_bytes(dtype, blocks * kQuantBlock);
  int8_t values[kBlock];
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    for (int r = 0; r < valid; ++r) {
      for (int64_t i = 0; i < m; ++i) c[i * ldc + g * kRows + r] = 0;
      for (int64_t b = 0; b < blocks; ++b) {
        float dw, mw;
        row_values(w + g * group_bytes, dtype, b, r, values, &dw, &mw);
        for (int64_t i = 0; i < m; ++i) {
          const int8_t* xb = xq + (i * blocks + b) * kBlock;
          int32_t sum = 0;
          for (int j = 0; j < kBlock; ++j) sum += int32_t(values[j]) * int32_t(xb[j]);
          const float dx = xd[i * blocks + b];
          c[i * ldc + g * kRows + r] +=
              dw * dx * static_cast<float>(sum) + mw * dx * static_cast<float>(xs[i * blocks + b]);
        }
      }
    }
  }
}

constexpr QuantKernels kGenericQuantKernels = {&quantize_row, &dot_groups};

}  // namespace

const int32_t* quant_half_sums(const int8_t* q, int64_t halves) {
  thread_local std::vector<int32_t> sums;
  sums.resize(size_t(halves));
  for (int64_t i = 0; i < halves; ++i) {
    int32_t sum = 0;
    for (int j = 0; j < 16; ++j) sum += q[16 * i + j];
    sums[size_t(i)] = sum;
  }
  return sums.data();
}

const QuantKernels& generic_quant_kernels() { return kGenericQuantKernels; }

}  // namespace infergate::detail
