// What one NVTX range costs the engine thread, in the three states of trace capture
// (docs/tracing.md has the measured figures):
//   INFERGATE_NVTX_BENCH=off        (default) NVTX with no tool: what every run pays
//   INFERGATE_NVTX_BENCH=installed  capture hooked, no recorder started
//   INFERGATE_NVTX_BENCH=recording  capture hooked and a recorder started (--trace)
// NVTX picks its tool once, on its first call, so the state is per process: run once per state,
// with --benchmark_filter=Nvtx (other benchmarks make NVTX calls too).
//   BM_NvtxDomainRange  the engine's own ranges: nvtx3::scoped_range_in<NvtxDomain>
//   BM_NvtxPlainRange   nvtxRangePushA / nvtxRangePop
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "bench/trace/nvtx_trace_recorder.h"
#include "common/util/nvtx_range.h"

namespace infergate::bench {
namespace {

// Recording keeps every event: a fixed iteration count keeps all runs under a thread's buffer
// cap (4M events), so no run measures the dropping path.
constexpr int64_t kIterations = 1 << 18;

// Before main(), hence before any NVTX call, as install() requires.
const std::string& nvtx_mode() {
  static const std::string mode = [] {
    const char* env = std::getenv("INFERGATE_NVTX_BENCH");
    std::string m = env ? env : "off";
    if (m == "installed" || m == "recording") {
      std::string why;
      if (!NvtxTraceRecorder::install(&why)) return "install failed: " + why;
    }
    if (m == "recording") (new NvtxTraceRecorder)->start();  // lives as long as the process
    return m;
  }();
  return mode;
}
const std::string& kModeAtStartup = nvtx_mode();

void BM_NvtxDomainRange(benchmark::State& state) {
  for (auto _ : state) {
    NvtxRange range("forward");
  }
  state.SetLabel(nvtx_mode());
}
BENCHMARK(BM_NvtxDomainRange)->Iterations(kIterations)->Repetitions(3);

#ifdef INFERGATE_HAVE_NVTX
void BM_NvtxPlainRange(benchmark::State& state) {
  for (auto _ : state) {
    nvtxRangePushA("forward");
    nvtxRangePop();
  }
  state.SetLabel(nvtx_mode());
}
BENCHMARK(BM_NvtxPlainRange)->Iterations(kIterations)->Repetitions(3);
#endif

}  // namespace
}  // namespace infergate::bench
