#include "common/imports/imported_results.h"

#include <numeric>

#include "common/imports/import_error.h"
#include "common/results/measured_workload.h"
#include "common/results/metric_registry.h"
#include "common/results/results_file.h"

namespace infergate {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Error share and goodput by our definitions; without an SLO every ok request is good.
void derive(ImportedRun& run) {
  RunSummary& s = run.summary;
  const double requests = double(s.num_requests);
  s.error_share = requests > 0 ? double(s.num_errors) / requests : 0.0;
  s.error_share_exceeded = s.error_share > kImportMaxErrorShare;
  if (run.measured.count("goodput_rps")) {
    s.good_fraction = requests > 0 ? std::min(1.0, s.goodput_rps * s.duration_s / requests) : 0.0;
  } else {
    s.goodput_rps = s.duration_s > 0 ? double(s.num_completed) / s.duration_s : 0.0;
    s.good_fraction = requests > 0 ? double(s.num_completed) / requests : 0.0;
    run.notes.push_back(
        "goodput_rps, good_fraction: the file has no SLO, so every ok request "
        "counts as good (our definition without an SLO)");
  }
  run.notes.push_back("error_share_exceeded: error_share above " +
                      nlohmann::json(kImportMaxErrorShare).dump() +
                      ", infergate run's default --max-error-share");
  run.measured.insert({"error_share", "error_share_exceeded", "goodput_rps", "good_fraction"});
}

// The repetition's errors must add up to num_errors; a tool that does not classify them gets one
// class saying so.
void check_error_classes(ImportedRun& run, const std::string& source_file) {
  RunSummary& s = run.summary;
  if (s.num_completed + s.num_errors + s.num_aborted != s.num_requests) {
    throw ImportError(source_file + ": the counts do not add up: " +
                      std::to_string(s.num_completed) + " completed + " +
                      std::to_string(s.num_errors) + " failed + " + std::to_string(s.num_aborted) +
                      " aborted is not " + std::to_string(s.num_requests) + " requests");
  }
  const int64_t classified =
      std::accumulate(s.error_classes.begin(), s.error_classes.end(), int64_t{0},
                      [](int64_t n, const ErrorClass& c) { return n + c.count; });
  if (classified == s.num_errors) return;
  if (!s.error_classes.empty()) {
    throw ImportError(source_file + ": the error classes count " + std::to_string(classified) +
                      " failed requests, but the file's failed count is " +
                      std::to_string(s.num_errors));
  }
  s.error_classes = {{"error (not classified by " + run.tool + ")", s.num_errors, ""}};
}

// The registry's summary with distributions from the run's ImportedStats and what the file did
// not give marked as such; notes say which.
nlohmann::json summary_json(ImportedRun& run) {
  nlohmann::json summary = summary_to_json(run.summary);
  std::vector<std::string> nulls, neutral, absent;
  for (const MetricInfo& m : run_summary_metrics()) {
    const std::string name(m.name);
    if (m.shape == MetricShape::kOptionalDistribution && !run.distributions.count(name)) {
      summary[name] = nullptr;  // e.g. TTFOT: no tool writes it apart
      nulls.push_back(name);
    } else if (m.distribution()) {
      const auto it = run.distributions.find(name);
      summary[name] =
          it == run.distributions.end() ? nlohmann::json::object() : stats_to_json(it->second);
      if (it == run.distributions.end()) {
        absent.push_back(name);
      } else if (!missing_stats(it->second).empty()) {
        run.notes.push_back(name + ": " + run.tool + " gives " + present_stats(it->second) + "; " +
                            missing_stats(it->second) + " left out (not written by it)");
      }
    } else if (!run.measured.count(name)) {
      const bool nullable =
          m.shape == MetricShape::kNumber || m.shape == MetricShape::kOptionalNumber;
      if (nullable) summary[name] = nullptr;
      (nullable ? nulls : neutral).push_back(name);
    }
  }
  if (!absent.empty()) {
    run.notes.push_back("not given by " + run.tool +
                        " (written as {}, absent for the gates): " + joined(absent));
  }
  if (!nulls.empty()) {
    run.notes.push_back("not measured by " + run.tool + " (null): " + joined(nulls));
  }
  if (!neutral.empty()) {
    run.notes.push_back("not measured by " + run.tool +
                        ", written as 0 or false because a count, "
                        "fraction or flag cannot be null: " +
                        joined(neutral));
  }
  return summary;
}

std::string workload_name(const ImportedRun& run) {
  std::string name = run.tool_slug + "/" + (run.model.empty() ? "unknown-model" : run.model);
  return run.run_label.empty() ? name : name + "/" + run.run_label;
}

nlohmann::json workload_json(const ImportedRun& run, const std::string& source_file) {
  return {{"name", workload_name(run)},
          {"description", "imported from " + run.tool + " " + run.version},
          {"target", {{"type", "imported"}, {"model", run.model}}},
          {"load", run.load},
          {"imported",
           {{"tool", run.tool},
            {"version", run.version},
            {"source_file", source_file},
            {"run", run.run_label},
            {"settings", run.settings},
            {"notes", run.notes}}}};
}

// Every key docs/results-schema.md lists, null where the tool says nothing; what it does say of
// the machine and the server is under "imported".
nlohmann::json manifest_json(const ImportedRun& run, const std::string& workload_hash) {
  const std::string why = "imported from " + run.tool + ", which records no GPU facts";
  return {{"workload_hash", workload_hash},
          {"seed", nullptr},
          {"git", {{"commit", "unknown"}, {"dirty", nullptr}}},
          {"build",
           {{"infergate_version", nullptr},
            {"type", nullptr},
            {"compiler", nullptr},
            {"cxx_flags", nullptr},
            {"cuda_toolkit", nullptr}}},
          {"gpu",
           {{"driver_version", nullptr},
            {"nvml_version", nullptr},
            {"devices", nlohmann::json::array()},
            {"unavailable_reason", why}}},
          {"host",
           {{"cpu_model", nullptr},
            {"logical_cores", nullptr},
            {"affinity_cores", nullptr},
            {"memory_bytes", nullptr},
            {"hostname", nullptr}}},
          {"imported", {{"tool", run.tool}, {"version", run.version}, {"machine", run.machine}}}};
}

}  // namespace

nlohmann::json imported_results_document(ImportedRun run, const std::string& source_file) {
  check_error_classes(run, source_file);
  derive(run);
  RepetitionResult repetition;
  repetition.summary = summary_json(run);  // adds the last notes, so before the workload
  repetition.errors = run.summary.error_classes;
  ResultsFile results;
  const nlohmann::json workload = workload_json(run, source_file);
  const std::string hash = measured_workload_hash(workload, "");
  results.doc = {{"schema", kResultsSchema},
                 {"incomplete", false},
                 {"created_at", run.created_at},
                 {"command", "import"},
                 {"workload", workload},
                 {"workload_hash", hash},
                 {"max_error_share", kImportMaxErrorShare},
                 {"overrides", nlohmann::json::array()},
                 {"manifest", manifest_json(run, hash)}};
  results.points.push_back({nullptr, nlohmann::json::object(), {repetition}});
  return results_to_json(results);
}

}  // namespace infergate
