// The text report of `infergate bench-comm`, laid out as nccl-tests prints its results: one
// block per collective, one row per message size, rows printed as they are measured.
#pragma once

#include <ostream>

#include "bench/programs/comm/comm_bench.h"

namespace infergate {

// "# infergate bench-comm: mpi, 2 ranks, f32, ..." and the column legend.
void print_comm_bench_header(std::ostream& out, const std::string& backend, int world_size,
                             const CommBenchOptions& options);
// The block heading the first time `series` has a row, then the row.
void print_comm_bench_row(std::ostream& out, const CommBenchSeries& series, const CommBenchRow& row,
                          CommDType dtype);
// Per collective: average and peak busbw; the total of wrong elements.
void print_comm_bench_footer(std::ostream& out, const CommBenchResult& result);

}  // namespace infergate
