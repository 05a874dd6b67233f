// The results file's pieces as JSON (schema "infergate.results/v1", docs/results-schema.md).
// Key names are stable: gates and reports read them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/metrics/run_summary.h"
#include "common/io/json_file.h"
#include "common/results/results_file.h"
#include "common/results/summary_mean.h"

namespace infergate {

nlohmann::json stat_to_json(const StatSummary& s);
nlohmann::json summary_to_json(const RunSummary& s);
// A repetition's "errors": [{"class", "count", "first_message"}], most frequent first.
nlohmann::json error_classes_to_json(const std::vector<ErrorClass>& classes);
nlohmann::json record_to_json(const RequestRecord& r, int64_t origin_ns);

}  // namespace infergate
