#include "gates/verdict/comparability.h"

#include <set>

#include "common/results/measured_workload.h"

namespace infergate {

namespace {

const nlohmann::json& at_path(const nlohmann::json& doc, const std::string& dotted) {
  static const nlohmann::json kNull;
  const nlohmann::json* v = &doc;
  size_t begin = 0;
  while (begin <= dotted.size()) {
    const size_t end = std::min(dotted.find('.', begin), dotted.size());
    const std::string key = dotted.substr(begin, end - begin);
    if (!v->is_object() || !v->contains(key)) return kNull;
    v = &(*v)[key];
    begin = end + 1;
  }
  return *v;
}

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
  for (const std::string& field : fingerprint_fields()) {
    const nlohmann::json& a = at_path(baseline.doc, field);
    const nlohmann::json& b = at_path(candidate.doc, field);
    if (a != b) diffs.push_back({field, a.dump(), b.dump()});
  }
  return diffs;
}

}  // namespace infergate
