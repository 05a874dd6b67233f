// The `cupti` object of a results file's repetition (docs/results-schema.md, "CUPTI"; definitions
// in docs/metrics.md, "GPU kernels (CUPTI)"): what the GPU ran during the load, reduced to
// per-name totals and the GPU's busy share, as a struct with its one writer and its one reader.
// bench/telemetry/cupti_results.h fills it from a CuptiTracer.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/section_reader.h"

namespace infergate {

// The kernels (or memory copies) of one name: how many ran and their summed duration.
struct KernelStats {
  std::string name;
  int64_t count = 0;
  double total_ms = 0;
};

struct CuptiRecord {
  bool enabled = true;                            // asked for (the object is absent otherwise)
  bool available = false;                         // tracing ran
  std::optional<std::string> unavailable_reason;  // null when available
  std::vector<KernelStats> kernels, memcpys;      // longest total first
  std::optional<double> gpu_busy_fraction;        // null when not available
  uint64_t dropped_records = 0;                   // records CUPTI dropped: the above undercount
};

nlohmann::json to_json(const CuptiRecord& cupti);
// `r` is the "cupti" object; a member of the wrong type throws ResultsError naming its path.
CuptiRecord read_cupti_record(const SectionReader& r);

}  // namespace infergate
