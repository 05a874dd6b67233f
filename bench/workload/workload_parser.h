// Reading workload files (schema "infergate.workload/v1", docs/workload-schema.md): strictly
// typed, every object closed to unknown keys, cross-field rules checked, defaults resolved. Any
// problem is a WorkloadError naming the file, the JSON path, the value and what is allowed, so
// nothing ever runs on an invalid file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/workload/workload.h"

namespace infergate {

// Validates `doc` and returns the workload with `resolved` (canonical JSON, defaults filled)
// and `hash` set. `source_name` prefixes error messages. Relative dataset and model paths are
// resolved against `base_dir` ("" keeps them as written).
Workload parse_workload(const nlohmann::json& doc, const std::string& source_name,
                        const std::string& base_dir = "");

// Reads `path` (JSON; // and /* */ comments allowed), applies `overrides` ("path=value", in
// order) to the document, records them, then parse_workload() with paths relative to the file's
// folder. An error that an override caused says so.
Workload load_workload_file(const std::string& path,
                            const std::vector<std::string>& overrides = {});

}  // namespace infergate
