// The multi-rank tests: mpirun starts this binary N times, and every rank runs every test case in
// the same order, so each collective in a test has all ranks calling it. Run by CTest with
// 1 to 4 ranks (tests/dist/CMakeLists.txt). A rank that fails a REQUIRE and skips the rest of a
// case leaves the others waiting; the communicators' deadline then ends the job with a message.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "bench/trace/nvtx_trace_recorder.h"
#include "engine/comm/mpi_session.h"

int main(int argc, char** argv) {
  // NVTX picks its tool on its first call in the process: hook the trace capture before any
  // communicator exists, for the test that reads the operations' ranges (nvtx_ranges_test.cc).
  infergate::NvtxTraceRecorder::install();
  infergate::MpiSession mpi(&argc, &argv);
  return Catch::Session().run(argc, argv);
}
