// The portable kernels built for the baseline ISA: the fallback on any CPU.
#include "kernels/cpu/linear_portable_impl.h"

namespace infergate::detail {

const LinearKernels& generic_linear_kernels() { return kPortableKernels; }

}  // namespace infergate::detail
