#include "bench/programs/comm/comm_bench_table.h"

#include <cstdio>
#include <string>

#include "bench/programs/comm/byte_size.h"

namespace infergate {

namespace {

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

}  // namespace

void print_comm_bench_header(std::ostream& out, const std::string& backend, int world_size,
                             const CommBenchOptions& o) {
  out << "# infergate bench-comm: backend " << backend << ", " << world_size << " rank"
      << (world_size == 1 ? "" : "s") << ", " << comm_dtype_name(o.dtype) << ", sizes "
      << format_byte_size(o.min_bytes) << " to " << format_byte_size(o.max_bytes) << " B by x"
      << o.step_factor << ", " << o.iters << " timed calls after " << o.warmup << " warm-up\n"
      << "# time: mean per call of the slowest rank; algbw = size / time; busbw = algbw * bus "
         "factor; #wrong: elements that differ from the exact result, all ranks\n";
}

void print_comm_bench_row(std::ostream& out, const CommBenchSeries& s, const CommBenchRow& row,
                          CommDType dtype) {
  if (&row == &s.rows.front()) {
    out << "#\n# " << comm_op_name(s.op) << format(" (bus factor %.3f)\n", s.bus_factor)
        << format("# %12s %12s %6s %12s %9s %9s %7s\n", "size", "count", "type", "time", "algbw",
                  "busbw", "#wrong")
        << format("# %12s %12s %6s %12s %9s %9s %7s\n", "(B)", "(elements)", "", "(us)", "(GB/s)",
                  "(GB/s)", "");
  }
  out << format("  %12zu %12zu %6s %12.2f %9.3f %9.3f %7lld\n", row.bytes, row.count,
                comm_dtype_name(dtype), row.time_us, row.algbw_gbps, row.busbw_gbps,
                static_cast<long long>(row.wrong))
      << std::flush;
}

void print_comm_bench_footer(std::ostream& out, const CommBenchResult& result) {
  out << "#\n";
  for (const CommBenchSeries& s : result.series) {
    out << format("# %-15s avg busbw %9.3f GB/s, peak %9.3f GB/s\n", comm_op_name(s.op),
                  s.avg_busbw_gbps(), s.peak_busbw_gbps());
  }
  out << "# wrong elements: " << result.total_wrong()
      << (result.total_wrong() == 0 ? " (every result checked and exact)\n" : " (FAILED)\n");
}

}  // namespace infergate
