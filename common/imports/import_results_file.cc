#include "common/imports/import_results_file.h"

#include <algorithm>
#include <filesystem>

#include "common/imports/aiperf_import.h"
#include "common/imports/guidellm_import.h"
#include "common/imports/import_error.h"
#include "common/imports/import_json_text.h"
#include "common/imports/imported_results.h"
#include "common/imports/inference_perf_import.h"
#include "common/imports/tool_time.h"
#include "common/imports/vllm_bench_serve_import.h"

namespace infergate {

namespace {

// AIPerf writes profile_export.jsonl beside profile_export_aiperf.json; a copy renamed
// <stem>.json keeps <stem>.jsonl beside it.
std::string aiperf_records_beside(const std::string& path) {
  const std::filesystem::path p(path);
  for (const std::filesystem::path& candidate :
       {std::filesystem::path(p).replace_extension(".jsonl"),
        p.parent_path() / "profile_export.jsonl"}) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  }
  return "";
}

// AIPerf's JSONL records ({"metadata", "metrics", "error"} per line) are not a run by themselves.
void refuse_aiperf_records(const ImportedDocument& first, const std::string& path) {
  const nlohmann::json& v = first.value;
  if (v.is_object() && v.contains("metadata") && v.contains("metrics")) {
    throw ImportError(path + ": " + first.root_path +
                      ": an AIPerf per-request record (profile_export.jsonl); import the "
                      "profile_export_aiperf.json beside it, which reads these records too");
  }
}

std::vector<ImportedRun> import_document(const ImportedDocument& d, const std::string& path) {
  const DetectedTool detected = detect_tool(d.value, path, d.root_path);
  const ImportReader doc(d.value, path, d.root_path);
  switch (detected.tool) {
    case ImportTool::kVllmBenchServe:
      return {import_vllm_bench_serve(doc, detected)};
    case ImportTool::kGuidellm:
      return import_guidellm(doc, detected);
    case ImportTool::kInferencePerf: {
      ImportedRun run = import_inference_perf(doc, detected);
      run.created_at = file_modified_utc(path);
      return {run};
    }
    case ImportTool::kAiperf: {
      const std::string records_file = aiperf_records_beside(path);
      const std::vector<ImportedDocument> records = records_file.empty()
                                                        ? std::vector<ImportedDocument>{}
                                                        : read_import_documents(records_file);
      return {import_aiperf(doc, detected, records, records_file)};
    }
  }
  throw ImportError(path + ": unknown tool");
}

}  // namespace

DetectedTool detect_results_file(const std::string& path) {
  const std::vector<ImportedDocument> docs = read_import_documents(path);
  refuse_aiperf_records(docs.front(), path);
  return detect_tool(docs.front().value, path, docs.front().root_path);
}

std::vector<nlohmann::json> import_results_runs(const std::string& path) {
  const std::vector<ImportedDocument> docs = read_import_documents(path);
  refuse_aiperf_records(docs.front(), path);
  std::vector<nlohmann::json> out;
  for (const ImportedDocument& d : docs) {
    std::vector<ImportedRun> runs = import_document(d, path);
    if (docs.size() > 1) {  // JSON Lines: which line each run came from
      for (ImportedRun& run : runs) {
        run.run_label = d.root_path.substr(0, d.root_path.find(':'));
        std::replace(run.run_label.begin(), run.run_label.end(), ' ', '-');
      }
    }
    for (ImportedRun& run : runs) out.push_back(imported_results_document(std::move(run), path));
  }
  return out;
}

nlohmann::json import_results_file(const std::string& path) {
  std::vector<nlohmann::json> runs = import_results_runs(path);
  if (runs.size() != 1) {
    throw ImportError(path + ": holds " + std::to_string(runs.size()) +
                      " runs (a GuideLLM sweep or vLLM --append-result); import them one "
                      "document each");
  }
  return std::move(runs.front());
}

}  // namespace infergate
