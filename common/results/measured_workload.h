// The part of a resolved workload that decides what one repetition measures: what the workload
// hash covers and what the gates diff when two hashes differ. The hash lives here, in the
// results model, so the gates recompute it from a results file's embedded workload with the
// very function the harness stamped it with.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

// `resolved` without its labels (`name`, `description`), provenance (`overrides`; an imported
// file's `imported.source_file`, `run` and `notes`) and how often and how much is recorded
// (`repetitions`, `record_requests`).
nlohmann::json measured_workload(nlohmann::json resolved);

// "fnv1a64:" and 16 hex digits (common/util/fnv1a.h) over the compact dump of
// measured_workload(resolved). File paths (dataset.path, target.model.gguf / safetensors,
// quality.text; a simulated target's model, hardware and calibration) count relative to `base_dir`,
// the workload file's folder (results files record it as `workload_dir`), so the same checkout on
// two machines gives the same hash.
std::string measured_workload_hash(const nlohmann::json& resolved, const std::string& base_dir);

}  // namespace infergate
