// Several imported runs of one workload as one results file of several repetitions (`infergate
// import --as-repetitions`): the gates' statistics need repetitions (6 a side by default), and a
// team's history of `vllm bench serve` runs is just that. Each run is one repetition, in the
// order given; the point's summary is their mean, as the harness writes it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace infergate {

// `runs` are import_results_runs' documents, `sources` the file each came from (for messages).
// Throws ImportError when they are not one workload (their workload hashes differ: another
// tool, model or load), naming the first file that differs and what differs.
nlohmann::json imported_as_repetitions(const std::vector<nlohmann::json>& runs,
                                       const std::vector<std::string>& sources);

}  // namespace infergate
