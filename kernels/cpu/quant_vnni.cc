// AVX-512 VNNI kernels of quantized `linear` (compiled with the AVX-512 flags plus
// -mavx512vnni; only called after cpu_features.cc saw AVX512_VNNI at run time).
#include "kernels/cpu/quant_kernels.h"

#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
#include "kernels/cpu/quant_x86_impl.h"

namespace infergate::detail {
const QuantKernels& vnni_quant_kernels() { return kX86QuantKernels; }
}  // namespace infergate::detail
#else
namespace infergate::detail {
const QuantKernels& vnni_quant_kernels() { return avx2_quant_kernels(); }
}  // namespace infergate::detail
#endif
