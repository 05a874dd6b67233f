// One row of a repetition's "load_ranks" section (under `mpirun -np N`, docs/distributed.md
// "Load from many hosts"): what rank 0 reports of one load rank, its host, the requests it sent,
// its clock against rank 0's and how late it sent them. The section is a row per rank.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/results/section_reader.h"

namespace infergate {

// Actual send - scheduled send over the rank's requests.
struct LoadRankSendLag {
  double p50 = 0, max = 0;
};

struct LoadRankRecord {
  int64_t rank = 0;
  std::string host;                 // its host name ("" when it could not be read)
  int64_t requests = 0;             // requests it sent, warm-up included
  double clock_offset_ms = 0;       // rank 0's clock - this rank's, at the load's start
  double clock_drift_ms = 0;        // how the offset moved by the load's end
  double clock_uncertainty_ms = 0;  // the larger of the two measurements'
  LoadRankSendLag send_lag_ms;
};

// {"rank", "host", "requests", "clock_offset_ms", "clock_drift_ms", "clock_uncertainty_ms",
// "send_lag_ms": {"p50", "max"}}
nlohmann::json to_json(const LoadRankRecord& row);
// The section: an array of the rows.
nlohmann::json load_ranks_to_json(const std::vector<LoadRankRecord>& rows);

// `r` is one row's object.
LoadRankRecord read_load_rank(const SectionReader& r);
// `r` is the "load_ranks" array itself.
std::vector<LoadRankRecord> read_load_ranks(const SectionReader& r);

}  // namespace infergate
