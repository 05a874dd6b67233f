// The element-wise loops built with -mavx2 -mfma -mf16c: 8-lane loops.
#include "kernels/cpu/ops_portable_impl.h"

namespace infergate::detail {

const OpsKernels& avx2_ops_kernels() { return kPortableOps; }

}  // namespace infergate::detail
