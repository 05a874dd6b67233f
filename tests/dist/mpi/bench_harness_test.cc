// The bench-comm harness on real ranks: every collective, every size of a short sweep, checked
// exact, with the bandwidth model applied.
#include <catch2/catch.hpp>

#include "bench/programs/comm/collective_bench.h"
#include "bench/programs/comm/comm_bench.h"
#include "tests/dist/mpi/world.h"

namespace infergate {

TEST_CASE("the bench harness measures every collective and finds every result exact", "[mpi]") {
  MpiCommunicator measured = test::world();
  MpiCommunicator control = test::world();
  for (CommDType dtype : {CommDType::kF32, CommDType::kBF16, CommDType::kU8}) {
    CommBenchOptions o;
    o.min_bytes = 3;
    o.max_bytes = 70000;
    o.step_factor = 7;
    o.iters = 2;
    o.warmup = 1;
    o.dtype = dtype;
    const CommBenchResult r = run_comm_bench(measured, control, o);
    INFO(comm_dtype_name(dtype));
    CHECK(r.world_size == measured.size());
    REQUIRE(r.series.size() == benchmarked_ops().size());
    for (const CommBenchSeries& s : r.series) {
      INFO(comm_op_name(s.op));
      CHECK(!s.rows.empty());
      for (const CommBenchRow& row : s.rows) {
        CHECK(row.wrong == 0);
        CHECK(row.time_us > 0);
        CHECK(row.busbw_gbps == Approx(row.algbw_gbps * s.bus_factor));
      }
      // The harness's own barrier and reductions went over `control`, not `measured`.
      CHECK(r.stats[s.op].calls > 0);
    }
    CHECK(r.stats[CommOp::kBarrier].calls == 0);
    CHECK(r.total_wrong() == 0);
  }
}

}  // namespace infergate
