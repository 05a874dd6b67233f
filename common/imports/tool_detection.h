// Which load generator wrote a JSON document, told from its distinctive keys and version fields
// (/tmp/import_formats.md's "Recognizing" sections, kept in docs/metrics.md): vLLM's
// `vllm bench serve --save-result`, AIPerf's profile_export_aiperf.json, GuideLLM's
// benchmarks.json, inference-perf's *_lifecycle_metrics.json. A document of another tool, or of
// a version or layout the importers do not read, is refused naming what was seen.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

enum class ImportTool { kVllmBenchServe, kAiperf, kGuidellm, kInferencePerf };

struct DetectedTool {
  ImportTool tool;
  std::string name;     // "vllm bench serve"
  std::string version;  // "0.7.3", or how it was recognized when the file has no version field
};

// Throws ImportError "<file>: <json path>: <what was seen>" for anything not importable.
// `root` is the document's JSON path ("$", or "line 2: $" in JSON Lines).
DetectedTool detect_tool(const nlohmann::json& doc, const std::string& file,
                         const std::string& root = "$");

}  // namespace infergate
