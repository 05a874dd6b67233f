// The element-wise loops built for the baseline ISA: the fallback on any CPU.
#include "kernels/cpu/ops_portable_impl.h"

namespace infergate::detail {

const OpsKernels& generic_ops_kernels() { return kPortableOps; }

}  // namespace infergate::detail
