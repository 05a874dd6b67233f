// The portable kernels built with -mavx2 -mfma -mf16c (see kernels/CMakeLists.txt), chosen at
// run time on CPUs with AVX2 but without AVX-512.
#include "kernels/cpu/linear_portable_impl.h"

namespace infergate::detail {

const LinearKernels& avx2_linear_kernels() { return kPortableKernels; }

}  // namespace infergate::detail
