// A sweep point's summary: the mean of its repetitions' summaries.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

namespace infergate {

// Mean of each metric over repetitions (latency statistics averaged statistic by statistic;
// a flag holds if it held in any repetition; a metric null in some repetitions is the mean of
// the others, and null when null in all).
nlohmann::json mean_of_summaries(const std::vector<nlohmann::json>& summaries);

}  // namespace infergate
