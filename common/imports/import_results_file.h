// `infergate import`'s entry: another load generator's results file in, our results documents
// out (schema "infergate.results/v1", accepted by parse_results as written). The tool is
// detected from the content (tool_detection.h); AIPerf's per-request profile_export.jsonl is read
// from beside its summary when it is there. Nothing is written here: the caller writes the
// documents, and any problem throws ImportError first.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/imports/tool_detection.h"

namespace infergate {

// The tool that wrote `path` (its first document for JSON Lines). Throws ImportError.
DetectedTool detect_results_file(const std::string& path);

// One results document per run the file holds: one, or one per JSON Lines entry (vLLM
// --append-result) or per GuideLLM benchmark (a sweep). Throws ImportError.
std::vector<nlohmann::json> import_results_runs(const std::string& path);

// The results document of a file that holds one run; a file of several is refused, naming how
// many (use import_results_runs). Throws ImportError.
nlohmann::json import_results_file(const std::string& path);

}  // namespace infergate
