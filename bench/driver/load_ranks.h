// One load spread over the ranks of an MPI job (`mpirun -np N infergate run W`, docs/
// distributed.md "Load from many hosts"): every rank builds the same global schedule and sends
// its share of it (requests by index, closed-loop users, whole sessions), each rank's steady
// clock is measured against rank 0's before and after the load, and rank 0 merges the records
// into one DriverResult on its own clock, as if one process had sent them all.
#pragma once

#include <string>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/driver/load_driver.h"
#include "bench/targets/target.h"
#include "common/results/load_rank_record.h"
#include "engine/comm/communicator.h"

namespace infergate {

// A rank's clock against rank 0's: rank 0's time = this rank's time + offset_ns, known to
// within +- uncertainty_ns (half the best of several round trips).
struct ClockOffset {
  int64_t offset_ns = 0;
  int64_t uncertainty_ns = 0;
};

// The most a rank's offset may be uncertain at the start: beyond it, its latencies could not be
// merged with rank 0's, and the run is refused.
inline constexpr double kMaxClockUncertaintyMs = 1.0;

class LoadRanks {
 public:
  // `comm` spans every load rank; rank 0 writes the results.
  explicit LoadRanks(Communicator& comm) : comm_(comm) {}

  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }

  // Collective: runs this rank's share of the load and returns, on rank 0, every rank's records
  // merged on rank 0's clock (renumbered in scheduled order) and in `report` a row per rank in
  // rank order (the repetition's "load_ranks"); on the other ranks, their own result, `report`
  // untouched. Throws std::runtime_error when a rank's clock offset is too uncertain to merge.
  DriverResult run(Target& target, const std::vector<BenchRequest>& requests, DriverOptions options,
                   std::vector<LoadRankRecord>& report);

  // Collective: this rank's clock offset to rank 0 (0 on rank 0), best of `round_trips`.
  ClockOffset measure_clock_offset(int round_trips = 16);

 private:
  // Collective: rank 0's start time, as this rank's clock reads it.
  int64_t agree_start_ns(const ClockOffset& offset);

  Communicator& comm_;
};

}  // namespace infergate
