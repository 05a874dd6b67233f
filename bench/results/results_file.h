// A results file read back (schema "infergate.results/v1", docs/results-schema.md) for the
// gates and reports. Only the structure is checked here; metrics are looked up by key later.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

inline constexpr const char* kResultsSchema = "infergate.results/v1";

// A results file that cannot be used; the message names the file and the JSON path.
class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RepetitionResult {
  int index = 0;
  bool incomplete = false;
  nlohmann::json summary = nlohmann::json::object();
  nlohmann::json engine;                              // null when absent
  nlohmann::json timeline = nlohmann::json::array();  // resource samples
  nlohmann::json requests = nlohmann::json::array();  // empty unless recorded
  nlohmann::json cupti;                               // null unless CUPTI tracing was asked for
};

struct PointResult {
  nlohmann::json sweep;  // null without a sweep, else {"field", "value"}
  nlohmann::json summary = nlohmann::json::object();
  std::vector<RepetitionResult> repetitions;
};

struct ResultsFile {
  std::string source;  // the path it was read from
  nlohmann::json doc;  // the whole document as read
  bool incomplete = false;
  std::string workload_name;
  std::string workload_hash;
  std::string command;
  std::string created_at;
  nlohmann::json workload = nlohmann::json::object();
  nlohmann::json manifest = nlohmann::json::object();
  std::vector<PointResult> points;

  size_t num_repetitions() const { return points.empty() ? 0 : points[0].repetitions.size(); }
};

// "load.rate=4" for a sweep point, "" without a sweep.
std::string sweep_point_label(const PointResult& point);
// The point of `results` with the same sweep value as `like`, or null.
const PointResult* point_with_same_sweep(const ResultsFile& results, const PointResult& like);

// Reads `path`; throws ResultsError (or JsonFileError) naming the file and the bad field.
ResultsFile load_results(const std::string& path);
ResultsFile parse_results(const nlohmann::json& doc, const std::string& source);
// The document with its points rebuilt from `results.points` (after repetitions were added).
nlohmann::json results_to_json(const ResultsFile& results);

}  // namespace infergate
