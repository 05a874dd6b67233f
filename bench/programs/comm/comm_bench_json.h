// The results file of `infergate bench-comm`: schema "infergate.comm/v1" (docs/distributed.md).
// Its `summary` holds flat numbers under the results files' `summary.<metric>` keys, so the
// gates' metric keys (common/results/metric_key.h) read them: `<op>_avg_busbw_gbps`,
// `<op>_peak_busbw_gbps`, `<op>_small_time_us` (the smallest size's time: latency), `num_wrong`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bench/programs/comm/comm_bench.h"

namespace infergate {

inline constexpr const char* kCommBenchSchema = "infergate.comm/v1";

// The document: options, one series per collective with its rows, the summary, rank 0's
// communication stats, and the reproducibility manifest (bench/results/manifest.h).
nlohmann::json comm_bench_json(const CommBenchResult& result, const std::string& command);
// The summary alone.
nlohmann::json comm_bench_summary(const CommBenchResult& result);

}  // namespace infergate
