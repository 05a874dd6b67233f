// What every importer produces from another tool's results file, before it becomes our results
// document (imported_results.h): the tool and its version, its load settings, the run's metrics
// in our names and units, and notes on every place where the tool's definition differs from
// ours (docs/metrics.md). A metric the file does not give stays out of `measured` and
// `distributions`, and the document writes it as not measured instead of inventing it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "common/imports/imported_stats.h"
#include "common/results/run_summary.h"

namespace infergate {

struct ImportedRun {
  std::string tool;        // "vllm bench serve", "AIPerf", "GuideLLM", "inference-perf"
  std::string tool_slug;   // "vllm-bench-serve": the first part of the workload's name
  std::string version;     // as the file states it, or how it was recognized without one
  std::string model;       // "" when the file names none
  std::string created_at;  // ISO 8601 from the tool's own date; "" when the file has none
  std::string run_label;   // which run of a file that holds several ("benchmark 2"); else ""
  nlohmann::json settings = nlohmann::json::object();  // the tool's load settings, its names
  nlohmann::json load = nlohmann::json::object();      // the same in our workload's names
  nlohmann::json machine = nlohmann::json::object();   // what the tool says of machine, server
  // Counts, rates and other scalars in our units, and the errors by class; the distributions
  // are read from `distributions`, not from here.
  RunSummary summary;
  std::set<std::string> measured;                      // scalar metrics the file gave
  std::map<std::string, ImportedStats> distributions;  // by our metric name ("ttft_ms")
  std::vector<std::string> notes;                      // definition differences, gaps
};

}  // namespace infergate
