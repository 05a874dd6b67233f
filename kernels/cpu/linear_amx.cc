// AMX-BF16 kernels of `linear` for bf16 weights (compiled with -mamx-tile -mamx-bf16 and the
// AVX-512 flags; only called when cpu_features.cc found AMX and the OS granted the tile state).
// A 32 x 32 block of y lives in four fp32 tiles; each 32-wide k step loads two weight tiles and
// the hi and lo halves of two activation tiles, and issues eight tile dot products.
#include "kernels/cpu/linear_kernels.h"

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AVX512BF16__)
#include <immintrin.h>

namespace infergate::detail {

namespace {

struct alignas(64) TileConfig {
  uint8_t palette_id = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// Tiles 0-3: y block (rows 0-15 / 16-31 x columns 0-15 / 16-31); 4-5: x rows 0-15 / 16-31;
// 6-7: W columns 0-15 / 16-31. All 16 rows x 64 bytes.
void configure_tiles() {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  _tile_loadconfig(&cfg);
}

void split_bf16(const float* x, int64_t m, int64_t k, int64_t kp, int64_t r0, int64_t r1,
                uint16_t* hi, uint16_t* lo) {
  for (int64_t r = r0; r < r1; ++r) {
    uint16_t* h = hi + r * kp;
    uint16_t* l = lo + r * kp;
    for (int64_t j = 0; j < kp; j += 16) {
      const int64_t left = r < m ? k - j : 0;
      const __mmask16 mask = left >= 16  ? __mmask16(0xffff)
                             : left <= 0 ? 0
                                         : __mmask16((1u << left) - 1);
      const __m512 v = _mm512_maskz_loadu_ps(mask, x + r * k + j);
      const __m256bh vh = _mm512_cvtneps_pbh(v);
      const __m512 back = _mm512_castsi512_ps(
          _mm512_slli_epi32(_mm512_cvtepu16_epi32(reinterpret_cast<__m256i>(vh)), 16));
      const __m256bh vl = _mm512_cvtneps_pbh(_mm512_sub_ps(v, back));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + j), reinterpret_cast<__m256i>(vh));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(l + j), reinterpret_cast<__m256i>(vl));
    }
  }
}

// One 32 x 32 block over the whole k, written to out [32][32].
void block(const uint16_t* hi, const uint16_t* lo, int64_t kp, const uint16_t* panel, float* out) {
  const int64_t a_stride = kp * 2;  // bytes
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int64_t kk = 0; kk < kp; kk += 32) {
    const uint16_t* b = panel + kk * kPanelWidth;  // k pairs kk/2 ... as 128-byte rows
    _tile_loadd(6, b, 128);
    _tile_loadd(7, b + 32, 128);
    _tile_loadd(4, hi + kk, a_stride);
    _tile_loadd(5, hi + 16 * kp + kk, a_stride);
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
    _tile_loadd(4, lo + kk, a_stride);
    _tile_loadd(5, lo + 16 * kp + kk, a_stride);
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, out, 128);
  _tile_stored(1, out + 16, 128);
  _tile_stored(2, out + 16 * 32, 128);
  _tile_stored(3, out + 16 * 32 + 16, 128);
}

void gemm_panels(const uint16_t* hi, const uint16_t* lo, int64_t rows, int64_t valid_rows,
                 const uint16_t* panels, int64_t kp, int64_t p0, int64_t p1, float* c, int64_t ldc,
                 int64_t n) {
  configure_tiles();
  alignas(64) float out[32 * 32];
  for (int64_t p = p0; p < p1; ++p) {
    const uint16_t* panel = panels + p * kp * kPanelWidth;
    const int64_t cols = n - p * kPanelWidth < kPanelWidth ? n - p * kPanelWidth : kPanelWidth;
    const __mmask16 m0 = cols >= 16 ? __mmask16(0xffff) : __mmask16((1u << cols) - 1);
    const __mmask16 m1 = cols >= 32   ? __mmask16(0xffff)
                         : cols <= 16 ? __mmask16(0)
                                      : __mmask16((1u << (cols - 16)) - 1);
    for (int64_t r0 = 0; r0 < rows; r0 += 32) {
      block(hi + r0 * kp, lo + r0 * kp, kp, panel, out);
      const int64_t valid = valid_rows - r0 < 32 ? valid_rows - r0 : 32;
      for (int64_t i = 0; i < valid; ++i) {
        float* dst = c + (r0 + i) * ldc + p * kPanelWidth;
        _mm512_mask_storeu_ps(dst, m0, _mm512_load_ps(out + i * 32));
        _mm512_mask_storeu_ps(dst + 16, m1, _mm512_load_ps(out + i * 32 + 16));
      }
    }
  }
  _tile_release();
}

constexpr AmxKernels kAmxKernels = {&split_bf16, &gemm_panels};

}  // namespace

const AmxKernels* amx_kernels() { return &kAmxKernels; }

}  // namespace infergate::detail

#else  // built without AMX flags

namespace infergate::detail {
const AmxKernels* amx_kernels() { return nullptr; }
}  // namespace infergate::detail

#endif
