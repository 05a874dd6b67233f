// The results file's pieces as JSON (schema "infergate.results/v1", docs/results-schema.md).
// Key names are stable: gates and reports read them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/metrics/run_summary.h"

namespace infergate {

inline constexpr const char* kResultsSchema = "infergate.results/v1";

nlohmann::json stat_to_json(const StatSummary& s);
nlohmann::json summary_to_json(const RunSummary& s);
nlohmann::json record_to_json(const RequestRecord& r, int64_t origin_ns);
// Mean of each metric over repetitions (latency statistics averaged statistic by statistic).
nlohmann::json mean_of_summaries(const std::vector<nlohmann::json>& summaries);
// Writes `doc` to `path` atomically (temporary file + rename): never a half-written file.
void write_json_atomically(const nlohmann::json& doc, const std::string& path);

}  // namespace infergate
