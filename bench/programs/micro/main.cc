// infergate_micro: measures this machine's baselines first (so every ratio divides figures from
// one process), records them and the kernels' ISA in the benchmark context, then runs.
#include <benchmark/benchmark.h>

#include <string>

#include "baselines.h"
#include "kernels/cpu/cpu_features.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const infergate::bench::Baselines& b = infergate::bench::baselines();
  benchmark::AddCustomContext("kernel_isa", infergate::isa_name(infergate::active_isa()));
  benchmark::AddCustomContext("baseline_read_GBps", std::to_string(b.read_bytes_per_second / 1e9));
  benchmark::AddCustomContext("baseline_sgemm_GFLOPs", std::to_string(b.gemm.flops / 1e9));
  benchmark::AddCustomContext("baseline_sgemm_library", b.gemm.library);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
