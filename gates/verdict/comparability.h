// Apples to apples: the fields of two results files that must match before their metrics are
// compared (the workload hash, and the machine and build fingerprint of the manifests).
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"

namespace infergate {

struct FieldDifference {
  std::string field;                // e.g. "manifest.host.cpu_model"
  std::string baseline, candidate;  // JSON text of each value
};

// Every fingerprint field that differs: when the workload hashes differ, each differing field
// of the resolved workloads ("workload.load.rate"), then the machine and build fields in a fixed
// order. Git commit, dirty flag, hostname and times are expected to differ and are not compared.
std::vector<FieldDifference> fingerprint_differences(const ResultsFile& baseline,
                                                     const ResultsFile& candidate);
// The manifest fields that make up the machine and build fingerprint (docs/gates.md).
const std::vector<std::string>& fingerprint_fields();
// For two simulated runs (deterministic_results): the calibration, hardware and model shape
// they were simulated with, and the build's type and compiler (floating point), not the host.
const std::vector<std::string>& simulated_fingerprint_fields();

}  // namespace infergate
