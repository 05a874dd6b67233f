// AVX2 kernels of quantized `linear` (compiled with -mavx2 -mfma -mf16c).
#include "kernels/cpu/quant_kernels.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include "kernels/cpu/quant_x86_impl.h"

namespace infergate::detail {
const QuantKernels& avx2_quant_kernels() { return kX86QuantKernels; }
}  // namespace infergate::detail
#else
namespace infergate::detail {
const QuantKernels& avx2_quant_kernels() { return generic_quant_kernels(); }
}  // namespace infergate::detail
#endif
