#include "gates/verdict/comparability.h"

#include <set>

#include "common/io/json_path.h"
#include "common/results/measured_workload.h"
#include "gates/verdict/comparison.h"

namespace infergate {

namespace {

// Leaf-by-leaf differences of two resolved workloads, as "workload.target.engine.x".
void diff_json(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
               std::vector<FieldDifference>& out) {
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, _] : a.items()) keys.insert(k);
    for (const auto& [k, _] : b.items()) keys.insert(k);
    static const nlohmann::json kAbsent;
    for (const std::string& k : keys) {
      diff_json(a.contains(k) ? a[k] : kAbsent, b.contains(k) ? b[k] : kAbsent, path + "." + k,
                out);
    }
    return;
  }
  if (a != b) out.push_back({path, a.dump(), b.dump()});
}

}  // namespace

const std::vector<std::string>& fingerprint_fields() {
  // Machine and build: what changes the numbers without the code changing. The GPU list keeps
  // names and memory; the hostname is left out so CI runners of one kind compare.
  static const std::vector<std::string> kFields = {
      "manifest.host.cpu_model",     "manifest.host.logical_cores", "manifest.host.affinity_cores",
      "manifest.host.memory_bytes",  "manifest.host.os.machine",    "manifest.gpu.devices",
      "manifest.gpu.driver_version", "manifest.build.type",         "manifest.build.compiler",
      "manifest.build.cxx_flags",    "manifest.build.cuda_toolkit",
  };
  return kFields;
}

const std::vector<std::string>& simulated_fingerprint_fields() {
  static const std::vector<std::string> kFields = {
      "manifest.simulated.calibration.hash", "manifest.simulated.hardware",
      "manifest.simulated.model", "manifest.build.type", "manifest.build.compiler"};
  return kFields;
}

std::vector<FieldDifference> fingerprint_differences(const ResultsFile& baseline,
                                                     const ResultsFile& candidate) {
  std::vector<FieldDifference> diffs;
  if (baseline.workload_hash != candidate.workload_hash) {
    diff_json(measured_workload(baseline.workload), measured_workload(candidate.workload),
              "workload", diffs);
    if (diffs.empty()) {  // same values, e.g. the same relative paths from other folders
      diffs.push_back({"workload_hash", baseline.workload_hash, candidate.workload_hash});
    }
  }
  // A simulated run's numbers depend on its calibration and hardware file, not on the host
  // it ran on: CI runners of any kind compare.
  const bool simulated = deterministic_results(baseline, candidate);
  for (const std::string& field :
       simulated ? simulated_fingerprint_fields() : fingerprint_fields()) {
    const nlohmann::json& a = json_at_path(baseline.doc, field);
    const nlohmann::json& b = json_at_path(candidate.doc, field);
    if (a != b) diffs.push_back({field, a.dump(), b.dump()});
  }
  return diffs;
}

}  // namespace infergate
