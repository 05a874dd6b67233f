// inference-perf's *_lifecycle_metrics.json (v0.6 and later) into an ImportedRun. The report
// holds summaries only ({mean, min, max, percentiles} in seconds, no counts), so they are mapped
// to ours in ms, and what it does not write (most counts, percentiles not configured) is left
// out. Its inter-token latency is per token with 0 gaps inside a chunk, as ours.
#pragma once

#include "common/imports/import_reader.h"
#include "common/imports/imported_run.h"
#include "common/imports/tool_detection.h"

namespace infergate {

// Throws ImportError naming the file and field of anything missing, negative or inconsistent.
ImportedRun import_inference_perf(const ImportReader& doc, const DetectedTool& detected);

}  // namespace infergate
