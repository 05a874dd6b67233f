// AIPerf's profile_export_aiperf.json (the flat "GenAI-Perf compatible" layout, schema 1.0 to
// 1.5) into an ImportedRun, with the per-request records of its profile_export.jsonl when given:
// from those our distributions are computed with our definitions (AIPerf's inter_chunk_latency
// is our ITL, its inter_token_latency our TPOT); without them its summary blocks are mapped.
// Every value is converted by the block's own `unit`, which AIPerf declares authoritative.
#pragma once

#include <string>
#include <vector>

#include "common/imports/import_json_text.h"
#include "common/imports/import_reader.h"
#include "common/imports/imported_run.h"
#include "common/imports/tool_detection.h"

namespace infergate {

// `records` are the JSONL lines of `records_file` (empty: summary only). Throws ImportError.
ImportedRun import_aiperf(const ImportReader& summary, const DetectedTool& detected,
                          const std::vector<ImportedDocument>& records,
                          const std::string& records_file);

}  // namespace infergate
