// Which CPU kernel each op runs at an instruction-set level, in words: what `infergate generate`
// prints and results manifests record (host.cpu_isa.kernels), so a figure names the kernels that
// produced it, not only the level. The dispatch itself lives with each op (linear.cc,
// paged_attention.cc, ops.cc); each entry starts with the name of the level whose code runs.
#pragma once

#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"

namespace infergate {

struct CpuKernelChoice {
  std::string op;  // "linear" | "linear quantized" | "linear fp8" | "attention" | "element-wise"
  std::string kernel;  // e.g. "avx2: 6x16 fp32 FMA tiles, f16/bf16 widened in registers"
};

std::vector<CpuKernelChoice> cpu_kernel_choices(IsaLevel level);

}  // namespace infergate
