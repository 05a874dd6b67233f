// The identity of a workload: results carry it so that gates refuse to compare runs of
// different workloads. The one implementation is the results model's measured_workload_hash()
// (common/results/measured_workload.h), which the gates use to check a results file's hash.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/results/measured_workload.h"

namespace infergate {

// measured_workload_hash(): "fnv1a64:" and 16 hex digits over the compact dump of the resolved
// workload, leaving out what does not change the measurement: the labels `name` and
// `description`, `overrides` (provenance only: their effect is already in the values),
// `repetitions` and `record_requests` (how often and how much is recorded). File paths
// (dataset.path, target.model.gguf / safetensors, quality.text) count relative to `base_dir`, the
// workload file's folder, so the same checkout on two machines gives the same hash.
std::string workload_hash(const nlohmann::json& resolved, const std::string& base_dir = "");

}  // namespace infergate
