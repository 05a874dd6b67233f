// NVTX ranges in the "infergate" domain: the single instrumentation source. Nsight Systems
// shows them on a GPU machine; infergate's own trace capture hooks the same calls. With no
// tool attached an NVTX call is a load and a branch. Without the NVTX3 headers they vanish.
#pragma once

#ifdef INFERGATE_HAVE_NVTX
#include <nvtx3/nvtx3.hpp>
#endif

namespace infergate {

#ifdef INFERGATE_HAVE_NVTX
struct NvtxDomain {
  static constexpr const char* name{"infergate"};
};
using NvtxRange = nvtx3::scoped_range_in<NvtxDomain>;
#else
class NvtxRange {
 public:
  explicit NvtxRange(const char*) {}
};
#endif

}  // namespace infergate
