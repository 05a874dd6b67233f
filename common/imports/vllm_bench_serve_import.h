// `vllm bench serve --save-result` (and the older benchmarks/benchmark_serving.py) JSON, one run
// per object, into an ImportedRun. With the per-request arrays (--save-detailed, or versions
// that always saved them) our distributions are computed from them with our definitions;
// without, vLLM's mean/median/pNN summaries are mapped and what it did not write is left out.
#pragma once

#include "common/imports/import_reader.h"
#include "common/imports/imported_run.h"
#include "common/imports/tool_detection.h"

namespace infergate {

// Throws ImportError naming the file and field of anything missing, negative or inconsistent.
ImportedRun import_vllm_bench_serve(const ImportReader& doc, const DetectedTool& detected);

}  // namespace infergate
