#include "bench/programs/comm/comm_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench/programs/comm/collective_bench.h"
#include "bench/programs/comm/test_values.h"

namespace infergate {

namespace {

// The buffers of one run, on the measured communicator's memory, staged through the host.
struct BenchBuffers {
  std::unique_ptr<CommBuffer> send;
  std::unique_ptr<CommBuffer> recv;
  std::vector<unsigned char> staging;
};

// Fills the data a collective starts from (send, or recv when in place) and poisons the rest
// with 0xff bytes (NaN or -1 or 255: never an expected value).
void prepare(const CollectiveBench& bench, const TestValues& values, int rank,
             const CollectiveShape& shape, BenchBuffers& b) {
  const size_t elem = comm_dtype_size(values.dtype());
  const size_t data_count = bench.in_place() ? shape.recv_count : shape.send_count;
  values.encode(b.staging, data_count, [&](size_t i) { return bench.initial(values, rank, i); });
  if (bench.in_place()) {
    b.recv->upload(b.staging.data(), b.staging.size());
    return;
  }
  b.send->upload(b.staging.data(), b.staging.size());
  b.staging.assign(shape.recv_count * elem, 0xff);
  b.recv->upload(b.staging.data(), b.staging.size());
}

int64_t count_wrong(const CollectiveBench& bench, const TestValues& values, int rank, int ranks,
                    const CollectiveShape& shape, BenchBuffers& b) {
  b.staging.resize(shape.recv_count * comm_dtype_size(values.dtype()));
  b.recv->download(b.staging.data(), b.staging.size());
  int64_t wrong = 0;
  for (size_t i = 0; i < shape.recv_count; ++i) {
    const double want = static_cast<double>(bench.expected(values, rank, ranks, shape, i));
    if (!(values.load(b.staging.data(), i) == want)) ++wrong;
  }
  return wrong;
}

CommBenchRow measure(Communicator& measured, Communicator& control, const CollectiveBench& bench,
                     const CommBenchOptions& o, size_t count, BenchBuffers& b) {
  const int n = measured.size();
  const TestValues values(o.dtype, n);
  const CollectiveShape shape = bench.shape(count, n);
  const ConstCommSpan send = b.send->span(o.dtype, shape.send_count);
  const CommSpan recv = b.recv->span(o.dtype, shape.recv_count);

  prepare(bench, values, measured.rank(), shape, b);
  for (int i = 0; i < o.warmup; ++i) bench.run(measured, send, recv);
  control.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < o.iters; ++i) bench.run(measured, send, recv);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::vector<double> seconds = {took.count() / o.iters};
  control.all_reduce(seconds, ReduceOp::kMax);

  prepare(bench, values, measured.rank(), shape, b);
  bench.run(measured, send, recv);
  std::vector<int64_t> wrong = {count_wrong(bench, values, measured.rank(), n, shape, b)};
  control.all_reduce(wrong, ReduceOp::kSum);

  CommBenchRow row;
  row.count = count;
  row.bytes = count * comm_dtype_size(o.dtype);
  row.time_us = seconds[0] * 1e6;
  row.algbw_gbps = seconds[0] > 0 ? row.bytes / seconds[0] / 1e9 : 0;
  row.busbw_gbps = row.algbw_gbps * bench.bus_factor(n);
  row.wrong = wrong[0];
  return row;
}

}  // namespace

void CommBenchOptions::validate() const {
  if (min_bytes < 1) throw std::invalid_argument("--min-bytes must be at least 1");
  if (max_bytes < min_bytes) {
    throw std::invalid_argument("--max-bytes (" + std::to_string(max_bytes) +
                                ") must not be below --min-bytes (" + std::to_string(min_bytes) +
                                ")");
  }
  if (!(step_factor > 1)) throw std::invalid_argument("--step-factor must be greater than 1");
  if (iters < 1) throw std::invalid_argument("--iters must be at least 1");
  if (warmup < 0) throw std::invalid_argument("--warmup must not be negative");
  for (CommOp op : ops) make_collective_bench(op);  // throws for an operation not measured
}

double CommBenchSeries::avg_busbw_gbps() const {
  if (rows.empty()) return 0;
  double sum = 0;
  for (const CommBenchRow& r : rows) sum += r.busbw_gbps;
  return sum / static_cast<double>(rows.size());
}

double CommBenchSeries::peak_busbw_gbps() const {
  double peak = 0;
  for (const CommBenchRow& r : rows) peak = std::max(peak, r.busbw_gbps);
  return peak;
}

int64_t CommBenchResult::total_wrong() const {
  int64_t sum = 0;
  for (const CommBenchSeries& s : series) {
    for (const CommBenchRow& r : s.rows) sum += r.wrong;
  }
  return sum;
}

std::vector<size_t> sweep_counts(const CommBenchOptions& o, CommOp op, int ranks) {
  const size_t elem = comm_dtype_size(o.dtype);
  const size_t granularity = make_collective_bench(op)->granularity(ranks);
  std::vector<size_t> counts;
  for (double bytes = static_cast<double>(o.min_bytes);
       bytes <= static_cast<double>(o.max_bytes) * (1 + 1e-9); bytes *= o.step_factor) {
    const size_t count = static_cast<size_t>(bytes) / elem / granularity * granularity;
    if (count == 0 || (!counts.empty() && counts.back() == count)) continue;
    counts.push_back(count);
  }
  return counts;
}

CommBenchResult run_comm_bench(Communicator& measured, Communicator& control,
                               const CommBenchOptions& options,
                               const CommBenchRowCallback& on_row) {
  options.validate();
  CommBenchResult result;
  result.backend = measured.backend();
  result.world_size = measured.size();
  result.options = options;
  if (result.options.ops.empty()) result.options.ops = benchmarked_ops();

  // Every collective's buffers fit in max_bytes (its size is its largest buffer).
  BenchBuffers buffers;
  buffers.send = measured.allocate(options.max_bytes);
  buffers.recv = measured.allocate(options.max_bytes);
  const CommStats before = measured.stats();
  for (CommOp op : result.options.ops) {
    const auto bench = make_collective_bench(op);
    CommBenchSeries& series = result.series.emplace_back();
    series.op = op;
    series.bus_factor = bench->bus_factor(measured.size());
    for (size_t count : sweep_counts(options, op, measured.size())) {
      series.rows.push_back(measure(measured, control, *bench, options, count, buffers));
      if (on_row) on_row(series, series.rows.back());
    }
  }
  result.stats = measured.stats() - before;
  return result;
}

}  // namespace infergate
