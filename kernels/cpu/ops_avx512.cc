// The element-wise loops built with the AVX-512 flags: 16-lane loops.
#include "kernels/cpu/ops_portable_impl.h"

namespace infergate::detail {

const OpsKernels& avx512_ops_kernels() { return kPortableOps; }

}  // namespace infergate::detail
