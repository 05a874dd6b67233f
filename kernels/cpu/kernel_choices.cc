#include "kernels/cpu/kernel_choices.h"

#include "kernels/cpu/fp8_kernels.h"
#include "kernels/cpu/quant_kernels.h"

namespace infergate {

namespace {

struct LevelKernels {
  const char* linear;
  const char* attention;
  const char* elementwise;
};

LevelKernels kernels_at(IsaLevel level) {
  switch (level) {
    case IsaLevel::kAmx:
      return {
          "amx: AMX-BF16 tiles for bf16 weights at m >= 24 (x split into bf16 hi + lo), "
          "else avx512 12x32 fp32 FMA tiles",
          "avx512: 64-position chunks, online softmax (head_dim % 16 == 0, else portable)",
          "avx512: compiler-vectorized, 16 lanes"};
    case IsaLevel::kAvx512:
      return {"avx512: 12x32 fp32 FMA tiles, f16/bf16 widened in registers",
              "avx512: 64-position chunks, online softmax (head_dim % 16 == 0, else portable)",
              "avx512: compiler-vectorized, 16 lanes"};
    case IsaLevel::kAvx2:
      return {
          "avx2: 6x16 fp32 FMA tiles (16-bit panels widened once per block at m >= 12), "
          "prefetching m = 1 stream",
          "avx2: 64-position chunks, online softmax (head_dim % 8 == 0, else portable)",
          "avx2: compiler-vectorized, 8 lanes"};
#if defined(__aarch64__)
    case IsaLevel::kNeon:
      return {"neon: 8x8 fp32 FMA tiles (4x16 up to 4 rows), f16/bf16 widened",
              "neon: 64-position chunks, online softmax (head_dim % 4 == 0, else portable)",
              "neon: compiler-vectorized, 4 lanes"};
#endif
    case IsaLevel::kGeneric:
      break;
  }
  return {"generic: portable C++, compiler-vectorized for the baseline ISA",
          "generic: portable C++", "generic: compiler-vectorized for the baseline ISA"};
}

}  // namespace

std::vector<CpuKernelChoice> cpu_kernel_choices(IsaLevel level) {
  const LevelKernels k = kernels_at(level);
  const std::string quant = detail::quant_kernels_name(level);
  const std::string groups = " over 8-row groups, activations quantized per 32-block";
  std::string quant_kernel = "generic: portable int32 block dot products";
  if (quant == "avx512-vnni") quant_kernel = "avx512: VNNI vpdpbusd" + groups;
  if (quant == "avx2") quant_kernel = "avx2: vpmaddubsw" + groups;
  const std::string fp8 = detail::fp8_kernels_name(level);
  std::string fp8_kernel = "generic: e4m3 through a 256-entry table, fp32 sums";
  const std::string fp8_groups = " over 8-row groups, fp32 FMAs";
  if (fp8 == "avx512-vbmi") fp8_kernel = "avx512: VBMI vpermi2b byte tables" + fp8_groups;
  if (fp8 == "avx512") fp8_kernel = "avx512: e4m3 widened through fp16 (vcvtph2ps)" + fp8_groups;
  if (fp8 == "avx2") fp8_kernel = "avx2: e4m3 widened through fp16 (vcvtph2ps)" + fp8_groups;
  return {{"linear", k.linear},
          {"linear quantized", quant_kernel},
          {"linear fp8", fp8_kernel},
          {"attention", k.attention},
          {"element-wise", k.elementwise}};
}

}  // namespace infergate
