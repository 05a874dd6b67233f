// The harness of `infergate bench-comm` (nccl-tests' shape): for each collective and each
// message size of a geometric sweep, warm up, time `iters` back-to-back calls, then run once more
// on fresh data and check every received element. Collective: every rank calls it with the same
// options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/comm/comm_dtype.h"
#include "engine/comm/comm_op.h"
#include "engine/comm/comm_stats.h"
#include "engine/comm/communicator.h"

namespace infergate {

struct CommBenchOptions {
  size_t min_bytes = 8;
  size_t max_bytes = size_t{64} << 20;
  double step_factor = 2;
  int iters = 20;
  int warmup = 5;
  std::vector<CommOp> ops;  // empty: benchmarked_ops()
  CommDType dtype = CommDType::kF32;

  // Throws std::invalid_argument naming the option (--min-bytes, --iters, ...) and the rule.
  void validate() const;
};

struct CommBenchRow {
  size_t bytes = 0;    // the message size (collective_bench.h)
  size_t count = 0;    // bytes / element size
  double time_us = 0;  // mean per call, the slowest rank's
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  int64_t wrong = 0;  // wrong elements, summed over ranks
};

struct CommBenchSeries {
  CommOp op = CommOp::kAllReduce;
  double bus_factor = 0;
  std::vector<CommBenchRow> rows;

  double avg_busbw_gbps() const;  // nccl-tests' "Avg bus bandwidth"
  double peak_busbw_gbps() const;
};

struct CommBenchResult {
  std::string backend;
  int world_size = 1;
  CommBenchOptions options;
  std::vector<CommBenchSeries> series;
  CommStats stats;  // this rank's traffic on the measured communicator

  int64_t total_wrong() const;
};

// Message sizes of the sweep for `op`: min_bytes, then multiplied by step_factor up to
// max_bytes, each rounded down to whole elements and to the collective's granularity; sizes
// that round to nothing or repeat the previous one are dropped.
std::vector<size_t> sweep_counts(const CommBenchOptions& options, CommOp op, int ranks);

// Called on every rank as each row is complete.
using CommBenchRowCallback = std::function<void(const CommBenchSeries&, const CommBenchRow&)>;

// Runs the benchmark on `measured`; `control` (host memory, same ranks) carries the harness's own
// traffic: the barrier before timing, the slowest time, the wrong counts. They may be the same
// communicator when it uses host memory, but then its stats include that traffic.
CommBenchResult run_comm_bench(Communicator& measured, Communicator& control,
                               const CommBenchOptions& options,
                               const CommBenchRowCallback& on_row = {});

}  // namespace infergate
