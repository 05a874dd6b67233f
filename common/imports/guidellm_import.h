// GuideLLM's benchmarks.json (report version 2, GuideLLM v0.7) into one ImportedRun per
// benchmark (a sweep holds several). When the report keeps every request (sample_size unset),
// our distributions are computed from them with our definitions; when it keeps a sample, the
// successful-request summaries are mapped instead, without the token-weighted ones GuideLLM
// cannot give unweighted. GuideLLM's inter_token_latency_ms is our TPOT; it records no ITL.
#pragma once

#include <vector>

#include "common/imports/import_reader.h"
#include "common/imports/imported_run.h"
#include "common/imports/tool_detection.h"

namespace infergate {

// Throws ImportError naming the file and field of anything missing, negative or inconsistent.
std::vector<ImportedRun> import_guidellm(const ImportReader& doc, const DetectedTool& detected);

}  // namespace infergate
