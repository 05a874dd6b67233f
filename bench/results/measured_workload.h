// The part of a resolved workload that decides what one repetition measures: what the workload
// hash covers and what the gates diff when two hashes differ.
#pragma once

#include <nlohmann/json.hpp>

namespace infergate {

// `resolved` without its labels (`name`, `description`), provenance (`overrides`) and how often
// and how much is recorded (`repetitions`, `record_requests`).
nlohmann::json measured_workload(nlohmann::json resolved);

}  // namespace infergate
