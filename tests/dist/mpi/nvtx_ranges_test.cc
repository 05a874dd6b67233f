// Every operation is an NVTX range named after it, in the infergate domain: Nsight Systems shows
// communication next to the engine's step ranges, and `--trace` captures the same.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bench/trace/nvtx_trace_recorder.h"
#include "tests/dist/mpi/world.h"

namespace infergate {

TEST_CASE("each operation is an NVTX range named after it", "[mpi]") {
  MpiCommunicator comm = test::world();
#ifdef INFERGATE_HAVE_NVTX
  REQUIRE(NvtxTraceRecorder::installed());
  NvtxTraceRecorder recorder;
  recorder.start();
  std::vector<float> data(100, 1.0f);
  comm.all_reduce(data);
  comm.broadcast(data, 0);
  comm.barrier();
  recorder.stop();
  std::vector<std::string> names;
  for (const TraceSlice& s : recorder.slices()) {
    if (s.domain == "infergate") names.push_back(s.name);
  }
  CHECK(names == std::vector<std::string>{"all_reduce", "broadcast", "barrier"});
#else
  WARN("built without NVTX3 headers: the ranges compile away");
#endif
}

}  // namespace infergate
