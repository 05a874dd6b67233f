// How an engine's work was split and what the split cost (docs/results-schema.md, "Engine
// statistics", `parallel`): a multi-rank engine's layout and collectives (engine/parallel), a
// simulated executor's step cost (sim/), and a simulated cluster's workers. The engine fills it,
// the results file carries it as `engine.parallel`, the report's communication table reads it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/section_reader.h"

namespace infergate {

// One collective's totals: calls, bytes per rank (nccl-tests' size) and seconds.
struct CommOpRecord {
  int64_t calls = 0, bytes = 0;
  double seconds = 0;
};
// By operation name ("all_reduce", "send", ...); operations never called are absent.
using CommScopeRecord = std::map<std::string, CommOpRecord>;

struct ParallelRecord {
  int64_t tensor_parallel = 1, pipeline_parallel = 1, expert_parallel = 1, micro_batches = 1;
  int64_t steps = 0;
  // A multi-rank engine's: its ranks and their communication, the group's and the world's.
  struct Ranks {
    int64_t world_size = 1, group_size = 1;
    CommScopeRecord world, group;
  };
  std::optional<Ranks> ranks;
  // Per pipeline stage, the share of step time its first rank spent not computing.
  struct Stage {
    int64_t stage = 0;
    double busy_s = 0, step_s = 0, bubble_fraction = 0;
  };
  struct Pipeline {
    std::vector<Stage> stages;
    double bubble_fraction = 0;  // mean over stages
  };
  std::optional<Pipeline> pipeline;  // more than one stage
  struct Experts {
    std::vector<int64_t> tokens_per_rank;
    double max_over_mean = 0, min_over_mean = 0;
  };
  std::optional<Experts> experts;  // expert parallelism
  // A simulated executor's modelled step time and its split ("simulated": true).
  struct Simulated {
    double step_ms = 0, compute_ms = 0, communication_ms = 0, overhead_ms = 0;
    std::map<std::string, double> operator_ms;
  };
  std::optional<Simulated> simulated;
  // A simulated cluster's workers, each its own executor's record and its role ("prefill",
  // "decode", "colocated"); the cluster's own record is its first worker's.
  std::string role;  // set on a worker only
  std::vector<ParallelRecord> workers;
};

nlohmann::json to_json(const ParallelRecord& p);
ParallelRecord read_parallel_record(const SectionReader& r);

}  // namespace infergate
