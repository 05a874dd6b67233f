#include "gates/ab/capacity_probes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "gates/ab/workload_process.h"

namespace infergate {

namespace {

// The resolved `load.search` of the workload as the baseline would run it, or null.
nlohmann::json bisecting_search(const ResultsFile& results) {
  const nlohmann::json& load = results.workload.value("load", nlohmann::json::object());
  const nlohmann::json search = load.value("search", nlohmann::json());
  return search.is_object() && !search.contains("at") ? search : nlohmann::json();
}

std::vector<double> probe_loads(double capacity, bool users) {
  std::vector<double> loads;
  for (double f : kCapacityProbeFactors) {
    const double load = users ? std::max(1.0, std::round(capacity * f)) : capacity * f;
    if (std::find(loads.begin(), loads.end(), load) == loads.end()) loads.push_back(load);
  }
  return loads;
}

}  // namespace

CapacityProbePlan plan_capacity_probes(const AbSettings& s, double time_limit_s) {
  std::vector<std::string> sets = s.sets;
  sets.insert(sets.end(), s.baseline.sets.begin(), s.baseline.sets.end());
  const std::string stem = (std::filesystem::path(s.out_dir) / "runs" / "baseline-search").string();
  std::filesystem::create_directories(std::filesystem::path(stem).parent_path());
  if (s.progress)
    s.progress("capacity search on the baseline (its loads are probed by every pair)");
  const WorkloadRun run = run_workload_process(s.baseline.binary, s.workload_path, sets, stem,
                                               s.working_dir, false, time_limit_s);
  // The search's settings as the baseline resolved them (its results embed the workload).
  nlohmann::json search = bisecting_search(run.results);
  const RepetitionResult& rep = run.results.points.at(0).repetitions.at(0);
  if (search.is_null() || !rep.search) {
    throw CapacityProbeError("the baseline's run of " + s.workload_path +
                             " made no capacity search (" + stem + ".json)");
  }
  const std::optional<double> capacity = rep.search->capacity;
  if (!capacity || *capacity <= 0) {
    throw CapacityProbeError("the baseline's capacity search found no capacity to probe around: " +
                             rep.search->verdict + " (" + stem + ".json)");
  }
  const bool users = rep.search->unit == "users";
  for (const char* key : {"from", "to", "precision", "max_probes"}) search.erase(key);
  search["at"] = probe_loads(*capacity, users);
  CapacityProbePlan plan;
  plan.search_set = "load.search=" + search.dump();
  plan.description = "baseline: " + rep.search->verdict +
                     "; every run probes load.search.at=" + search["at"].dump() +
                     " and its capacity is judged";
  return plan;
}

}  // namespace infergate
