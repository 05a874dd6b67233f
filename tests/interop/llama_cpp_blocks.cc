// Our dequantization of llama.cpp's block formats against llama.cpp's own: dequantize_row_* of
// the libggml-base.so in node-llama-cpp's prebuilt binaries (dlopen'ed, nothing compiled from
// llama.cpp). Random blocks of every type, every value compared bit for bit; and our quantizers
// against quantize_row_*_ref (what llama-quantize writes without an importance matrix), random
// rows of every magnitude, every byte compared.
//
// usage: llama_cpp_blocks LIBGGML_BASE_SO
// exit 0: all equal; 1: a difference, named (type, block, value, both bit patterns); 2: usage,
// or the library lacks a function.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/random/xoshiro256.h"
#include "kernels/cpu/iq4_blocks.h"
#include "kernels/cpu/k_quant_blocks.h"
#include "kernels/cpu/q5_blocks.h"

namespace {

using namespace infergate;

using LlamaDequantize = void (*)(const void* blocks, float* out, int64_t k);
using LlamaQuantizeRef = void (*)(const float* x, void* blocks, int64_t k);
// ggml's quantize_<type> (what llama-quantize calls): rows, no importance matrix here.
using LlamaQuantizeRows = size_t (*)(const float* x, void* blocks, int64_t rows, int64_t per_row,
                                     const float* importance);

struct BlockType {
  const char* name;             // as llama.cpp's function names it
  int64_t bytes, values;        // per block
  std::vector<int64_t> f16_at;  // offsets of the block's fp16 fields
  void (*ours)(const uint8_t* block, float* out);
};

const BlockType kTypes[] = {
    {"q5_0", kQ5_0BlockBytes, 32, {0}, &dequantize_block_q5_0},
    {"q5_1", kQ5_1BlockBytes, 32, {0, 2}, &dequantize_block_q5_1},
    {"q2_K", kQ2_KBlockBytes, 256, {80, 82}, &dequantize_block_q2_k},
    {"q3_K", kQ3_KBlockBytes, 256, {108}, &dequantize_block_q3_k},
    {"q5_K", kQ5_KBlockBytes, 256, {0, 2}, &dequantize_block_q5_k},
    {"q6_K", kQ6_KBlockBytes, 256, {208}, &dequantize_block_q6_k},
    {"iq4_nl", kIq4_NlBlockBytes, 32, {0}, &dequantize_block_iq4_nl},
    {"iq4_xs", kIq4_XsBlockBytes, 256, {0}, &dequantize_block_iq4_xs},
};

constexpr int64_t kBlocks = 4096;

struct Quantizer {
  const char* symbol;  // llama.cpp's function
  int64_t bytes, values;
  void (*ours)(const float* x, uint8_t* out);
  bool rows;  // LlamaQuantizeRows, else LlamaQuantizeRef
};

const Quantizer kQuantizers[] = {
    {"quantize_row_q5_0_ref", kQ5_0BlockBytes, 32, &quantize_block_q5_0, false},
    {"quantize_row_q5_1_ref", kQ5_1BlockBytes, 32, &quantize_block_q5_1, false},
    {"quantize_row_q6_K_ref", kQ6_KBlockBytes, 256, &quantize_block_q6_k, false},
    {"quantize_q6_K", kQ6_KBlockBytes, 256, &quantize_block_q6_k, true},
    {"quantize_iq4_nl", kIq4_NlBlockBytes, 32, &quantize_block_iq4_nl, true},
    {"quantize_iq4_xs", kIq4_XsBlockBytes, 256, &quantize_block_iq4_xs, true},
};

// Blocks of uniform values at magnitudes from 1e-3 to 1e3, some holding zeros or one value.
std::vector<float> random_values(int64_t values_per_block, Xoshiro256& rng) {
  std::vector<float> x(size_t(values_per_block * kBlocks));
  const auto uniform = [&] { return double(rng.next_u64() >> 11) * 0x1p-53; };
  for (int64_t b = 0; b < kBlocks; ++b) {
    const double scale = std::exp(-7 + 14 * uniform());
    const int kind = int(b % 8);  // 6: zeros here and there; 7: one value throughout
    const float constant = float(scale * (2 * uniform() - 1));
    for (int64_t j = 0; j < values_per_block; ++j) {
      float v = float(scale * (2 * uniform() - 1));
      if (kind == 6 && j % 3 == 0) v = 0;
      if (kind == 7) v = constant;
      x[size_t(b * values_per_block + j)] = v;
    }
  }
  return x;
}

// 0 when every byte agrees, else 1 with the first differing block named.
int compare_quantizer(const Quantizer& q, void* theirs, Xoshiro256& rng) {
  const std::vector<float> x = random_values(q.values, rng);
  std::vector<uint8_t> want(size_t(q.bytes * kBlocks)), got(want.size());
  if (q.rows) {
    reinterpret_cast<LlamaQuantizeRows>(theirs)(x.data(), want.data(), 1, q.values * kBlocks,
                                                nullptr);
  } else {
    reinterpret_cast<LlamaQuantizeRef>(theirs)(x.data(), want.data(), q.values * kBlocks);
  }
  for (int64_t b = 0; b < kBlocks; ++b) q.ours(x.data() + b * q.values, got.data() + b * q.bytes);
  for (int64_t b = 0; b < kBlocks; ++b) {
    if (std::memcmp(want.data() + b * q.bytes, got.data() + b * q.bytes, size_t(q.bytes)) != 0) {
      std::printf("%s: block %lld (first value %.9g) differs from llama.cpp's\n", q.symbol,
                  (long long)b, double(x[size_t(b * q.values)]));
      return 1;
    }
  }
  std::printf("%s: %lld blocks byte for byte equal\n", q.symbol, (long long)kBlocks);
  return 0;
}

// Random bytes, with every fp16 field a finite half (any sign, subnormals included): a NaN's
// payload says nothing about the format.
std::vector<uint8_t> random_blocks(const BlockType& t, Xoshiro256& rng) {
  std::vector<uint8_t> bytes(size_t(t.bytes * kBlocks));
  for (uint8_t& b : bytes) b = uint8_t(rng.next_u64());
  for (int64_t i = 0; i < kBlocks; ++i) {
    for (int64_t at : t.f16_at) {
      uint8_t* h = bytes.data() + i * t.bytes + at;
      if ((h[1] & 0x7C) == 0x7C) h[1] &= 0x83;  // exponent 31 (inf, NaN) -> 0 (subnormal)
    }
  }
  return bytes;
}

// 0 when every value agrees bit for bit, else 1 with the first difference named.
int compare(const BlockType& t, LlamaDequantize theirs, Xoshiro256& rng) {
  const std::vector<uint8_t> bytes = random_blocks(t, rng);
  std::vector<float> want(size_t(t.values * kBlocks)), got(want.size());
  theirs(bytes.data(), want.data(), t.values * kBlocks);
  for (int64_t i = 0; i < kBlocks; ++i)
    t.ours(bytes.data() + i * t.bytes, got.data() + i * t.values);
  for (size_t v = 0; v < want.size(); ++v) {
    uint32_t a, b;
    std::memcpy(&a, &want[v], 4);
    std::memcpy(&b, &got[v], 4);
    if (a != b) {
      std::printf("%s: block %lld value %lld: llama.cpp %.9g (0x%08x), infergate %.9g (0x%08x)\n",
                  t.name, (long long)(int64_t(v) / t.values), (long long)(int64_t(v) % t.values),
                  double(want[v]), a, double(got[v]), b);
      return 1;
    }
  }
  std::printf("%s: %lld blocks, %zu values bit for bit equal\n", t.name, (long long)kBlocks,
              want.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: llama_cpp_blocks LIBGGML_BASE_SO\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "llama_cpp_blocks: cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  Xoshiro256 rng(45);
  int failures = 0;
  for (const BlockType& t : kTypes) {
    const std::string symbol = std::string("dequantize_row_") + t.name;
    auto* theirs = reinterpret_cast<LlamaDequantize>(dlsym(lib, symbol.c_str()));
    if (theirs == nullptr) {
      std::fprintf(stderr, "llama_cpp_blocks: %s has no %s\n", argv[1], symbol.c_str());
      return 2;
    }
    failures += compare(t, theirs, rng);
  }
  for (const Quantizer& q : kQuantizers) {
    void* theirs = dlsym(lib, q.symbol);
    if (theirs == nullptr) {
      std::fprintf(stderr, "llama_cpp_blocks: %s has no %s\n", argv[1], q.symbol);
      return 2;
    }
    failures += compare_quantizer(q, theirs, rng);
  }
  return failures == 0 ? 0 : 1;
}
