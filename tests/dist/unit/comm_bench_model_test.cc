// bench-comm's model, without ranks: the bandwidth factors, the size sweep, the test values'
// exactness, option checks and the results summary's keys.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "bench/programs/comm/byte_size.h"
#include "bench/programs/comm/collective_bench.h"
#include "bench/programs/comm/comm_bench.h"
#include "bench/programs/comm/comm_bench_json.h"
#include "bench/programs/comm/comm_bench_table.h"
#include "bench/programs/comm/test_values.h"
#include "common/results/metric_key.h"

namespace infergate {

using Catch::Matchers::Contains;

TEST_CASE("bus factors follow nccl-tests: 2(n-1)/n, (n-1)/n and 1") {
  for (int n : {1, 2, 3, 4, 8}) {
    INFO(n << " ranks");
    CHECK(make_all_reduce_bench()->bus_factor(n) == Approx(2.0 * (n - 1) / n));
    CHECK(make_all_gather_bench()->bus_factor(n) == Approx(double(n - 1) / n));
    CHECK(make_reduce_scatter_bench()->bus_factor(n) == Approx(double(n - 1) / n));
    CHECK(make_all_to_all_bench()->bus_factor(n) == Approx(double(n - 1) / n));
    CHECK(make_send_recv_bench()->bus_factor(n) == 1.0);
    CHECK(make_broadcast_bench()->bus_factor(n) == 1.0);
  }
}

TEST_CASE("the sweep doubles from min to max in whole elements and whole blocks per rank") {
  CommBenchOptions o;  // 8 B to 64 MiB, x2, f32
  const std::vector<size_t> all_reduce = sweep_counts(o, CommOp::kAllReduce, 4);
  REQUIRE(all_reduce.size() == 24);  // 2^3 .. 2^26 bytes
  CHECK(all_reduce.front() == 2);
  CHECK(all_reduce.back() == (size_t{64} << 20) / 4);
  // all_gather with 4 ranks: 8 B is two floats, not one per rank: skipped; 16 B is 4 floats.
  const std::vector<size_t> gather = sweep_counts(o, CommOp::kAllGather, 4);
  CHECK(gather.front() == 4);
  CHECK(gather.size() == 23);
  // 3 ranks: counts round down to multiples of 3, and repeats are dropped.
  o.min_bytes = 4;
  o.max_bytes = 64;
  CHECK(sweep_counts(o, CommOp::kReduceScatter, 3) == std::vector<size_t>{3, 6, 15});
}

TEST_CASE("test values sum exactly over every rank in the narrowest types") {
  for (CommDType t : {CommDType::kBF16, CommDType::kF16, CommDType::kU8}) {
    for (int n : {1, 2, 3, 4, 16, 64}) {
      const TestValues v(t, n);
      INFO(comm_dtype_name(t) << ", " << n << " ranks");
      int64_t worst = 0;
      for (size_t i = 0; i < 300; ++i) worst = std::max(worst, v.sum_over_ranks(i));
      std::vector<unsigned char> bytes;
      v.encode(bytes, 1, [&](size_t) { return worst; });
      CHECK(v.load(bytes.data(), 0) == static_cast<double>(worst));  // representable exactly
      CHECK(v.modulus() >= 2);
    }
  }
  const TestValues f32(CommDType::kF32, 4);
  CHECK(f32.at(0, 5) != f32.at(1, 5));  // ranks differ, so swapped blocks are caught
}

TEST_CASE("byte sizes read as nccl-tests writes them, and bad ones are named") {
  CHECK(parse_byte_size("8", "--min-bytes") == 8);
  CHECK(parse_byte_size("4K", "--min-bytes") == 4096);
  CHECK(parse_byte_size("64M", "--max-bytes") == size_t{64} << 20);
  CHECK(parse_byte_size("1GiB", "--max-bytes") == size_t{1} << 30);
  CHECK(format_byte_size(size_t{64} << 20) == "64M");
  CHECK(format_byte_size(1000) == "1000");
  CHECK_THROWS_WITH(parse_byte_size("12Q", "--max-bytes"),
                    Contains("--max-bytes: '12Q' is not a byte count (e.g. 8, 4K, 64M, 1G"));
  CHECK_THROWS_WITH(parse_byte_size("-1", "--min-bytes"), Contains("'-1' is not a byte count"));
}

TEST_CASE("bench options are checked, naming the option") {
  CommBenchOptions o;
  o.max_bytes = 4;
  CHECK_THROWS_WITH(o.validate(), Contains("--max-bytes (4) must not be below --min-bytes (8)"));
  o = {};
  o.step_factor = 1;
  CHECK_THROWS_WITH(o.validate(), Contains("--step-factor must be greater than 1"));
  o = {};
  o.iters = 0;
  CHECK_THROWS_WITH(o.validate(), Contains("--iters must be at least 1"));
  o = {};
  o.ops = {CommOp::kAllToAllV};
  CHECK_THROWS_WITH(o.validate(), Contains("bench-comm does not measure all_to_all_v"));
}

TEST_CASE("the results summary holds flat numbers under keys the gates parse") {
  CommBenchResult r;
  r.backend = "mpi";
  r.world_size = 2;
  CommBenchSeries& s = r.series.emplace_back();
  s.op = CommOp::kAllReduce;
  s.bus_factor = 1;
  s.rows = {{8, 2, 3.0, 0.002, 0.002, 0}, {1024, 256, 5.0, 0.2, 0.2, 0}};
  const nlohmann::json summary = comm_bench_summary(r);
  CHECK(metric_value(summary, parse_metric_key("summary.all_reduce_peak_busbw_gbps")) == 0.2);
  CHECK(metric_value(summary, parse_metric_key("summary.all_reduce_avg_busbw_gbps")) ==
        Approx(0.101));
  CHECK(metric_value(summary, parse_metric_key("summary.all_reduce_small_time_us")) == 3.0);
  CHECK(metric_value(summary, parse_metric_key("summary.num_wrong")) == 0.0);

  std::ostringstream table;
  print_comm_bench_row(table, s, s.rows[0], CommDType::kF32);
  print_comm_bench_footer(table, r);
  CHECK_THAT(table.str(), Contains("# all_reduce (bus factor 1.000)") && Contains("(GB/s)") &&
                              Contains("wrong elements: 0 (every result checked and exact)"));
}

}  // namespace infergate
