// A results file read back (schema "infergate.results/v1", docs/results-schema.md) for the
// gates and reports. Reading checks what the gates rely on, so a bad file is an input error
// naming the field rather than a verdict: every summary value has its type, is finite,
// non-negative and bounded; counts add up; point summaries are the means of their repetitions;
// per-request records are well-formed and agree with their summary; the workload hash is that
// of the embedded workload.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/cupti_record.h"
#include "common/results/energy_record.h"
#include "common/results/load_rank_record.h"
#include "common/results/ramp_record.h"
#include "common/results/recorded_request.h"
#include "common/results/results_error.h"
#include "common/results/run_summary.h"
#include "common/results/search_record.h"
#include "common/results/server_side_record.h"
#include "common/results/sessions_record.h"
#include "common/results/target_stats.h"
#include "common/results/timeline_sample.h"

namespace infergate {

inline constexpr const char* kResultsSchema = "infergate.results/v1";

// One repetition as the harness writes it and the gates read it: each section a struct with one
// writer and one reader in common/results. Its summary stays a map of metric name to value:
// bench-comm's files carry metrics of their own, and the reader checks the run summary's by the
// registry (the harness writes them with summary_to_json).
struct RepetitionResult {
  int index = 0;
  bool incomplete = false;
  nlohmann::json summary = nlohmann::json::object();
  std::vector<ErrorClass> errors;          // failed requests by class, most first
  std::optional<TargetStats> engine;       // the target's statistics; null when absent
  std::vector<TimelineSample> timeline;    // resource samples
  std::vector<RecordedRequest> requests;   // empty unless recorded
  std::optional<CuptiRecord> cupti;        // unless CUPTI tracing was asked for
  std::optional<EnergyRecord> energy;      // a measured repetition's (not a simulated one's)
  std::optional<SessionsRecord> sessions;  // load.mode "sessions": per-turn figures
  std::optional<ServerSideRecord> server;  // an openai target's server side (/metrics, process)
  std::optional<RampRecord> ramp;          // load.ramp: per-stage figures and the saturation
  std::optional<SearchRecord> search;      // load.search: every probe, the capacity, cliffs
  std::optional<std::vector<LoadRankRecord>> load_ranks;  // under mpirun -np N: a row per rank
};

struct PointResult {
  nlohmann::json sweep;  // null without a sweep, else {"field", "value"}
  // The mean of the repetitions' summaries (counts become means too, hence a map, not a
  // RunSummary).
  nlohmann::json summary = nlohmann::json::object();
  std::vector<RepetitionResult> repetitions;
};

struct ResultsFile {
  std::string source;  // the path it was read from
  nlohmann::json doc;  // the whole document as read; to write one, its header fields
  bool incomplete = false;
  std::string workload_name;
  std::string workload_hash;
  std::string command;
  std::string created_at;
  nlohmann::json workload = nlohmann::json::object();
  nlohmann::json manifest = nlohmann::json::object();
  std::string workload_dir;  // what the hash counted file paths from; "" in older files
  std::vector<PointResult> points;

  size_t num_repetitions() const { return points.empty() ? 0 : points[0].repetitions.size(); }
};

// "load.rate=4" for a sweep point, "" without a sweep.
std::string sweep_point_label(const PointResult& point);
// The point of `results` with the same sweep value as `like`, or null.
const PointResult* point_with_same_sweep(const ResultsFile& results, const PointResult& like);

// The failed requests of one sweep point, over all its repetitions.
struct ErrorTally {
  std::string error_class;  // "connection refused", "http status 503", ...
  int64_t count = 0;
  std::string first_message;
};
struct PointErrors {
  int64_t requests = 0, errors = 0, completed = 0;  // measured requests
  std::vector<ErrorTally> classes;                  // most frequent first

  double share() const { return requests > 0 ? double(errors) / double(requests) : 0.0; }
};
PointErrors point_errors(const PointResult& point);
// "24 of 24 requests failed: connection refused: 24 (first: cannot connect to ...)".
std::string describe_errors(const PointErrors& errors);

// Reads `path`; throws ResultsError (or JsonFileError) naming the file and the bad field.
ResultsFile load_results(const std::string& path);
ResultsFile parse_results(const nlohmann::json& doc, const std::string& source);
// The one writer of a results file, for the harness and for a file read back and written again:
// `results.doc` (the header fields) with its points, summaries and "incomplete" rebuilt from
// `results`; each point's summary is computed again as the mean of its repetitions.
nlohmann::json results_to_json(const ResultsFile& results);

}  // namespace infergate
