// The stored history in files other tools read: JSON (runs with their metrics) and CSV (one row
// per metric value, long form: what spreadsheets and pandas pivot).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "history/history_store.h"

namespace infergate {

// {"schema": "infergate.history/v1", "runs": [{id, workload, ..., "metrics": [{point, sweep,
// repetition, metric, value}]}]}, oldest first.
nlohmann::json history_to_json(const HistoryStore& store, const std::string& workload = "");
// Header run_id,workload,workload_hash,machine_key,commit,created_at,point,sweep,repetition,
// metric,value; fields quoted as RFC 4180 says.
std::string history_to_csv(const HistoryStore& store, const std::string& workload = "");

}  // namespace infergate
