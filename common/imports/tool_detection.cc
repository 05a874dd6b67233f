#include "common/imports/tool_detection.h"

#include <cctype>

#include "common/imports/import_error.h"

namespace infergate {

namespace {

// AIPerf's flat schema versions this importer reads (schema 1.0 to 1.5, aiperf 0.3 onwards).
constexpr const char* kAiperfSchemas[] = {"1.0", "1.1", "1.2", "1.3", "1.4", "1.5"};
// GuideLLM's report schema (metadata.version) read: 2 (GuideLLM v0.7).
constexpr int kGuidellmReportVersion = 2;

struct Where {
  const std::string& file;
  const std::string& root;

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ImportError(file + ": " + root + key + ": " + what);
  }
};

std::string text_of(const nlohmann::json& v) {
  const std::string s = v.dump();
  return s.size() <= 40 ? s : s.substr(0, 37) + "...";
}

std::string some_keys(const nlohmann::json& doc) {
  std::string keys;
  size_t n = 0;
  for (const auto& [key, _] : doc.items()) {
    if (++n > 12) return keys + ", ...";
    keys += (keys.empty() ? "" : ", ") + key;
  }
  return keys.empty() ? "none" : keys;
}

bool is_object_member(const nlohmann::json& doc, const char* key) {
  return doc.contains(key) && doc[key].is_object();
}

// vLLM writes `date` as "%Y%m%d-%H%M%S".
bool vllm_date(const nlohmann::json& doc) {
  if (!doc.contains("date") || !doc["date"].is_string()) return false;
  const std::string d = doc["date"].get<std::string>();
  if (d.size() != 15 || d[8] != '-') return false;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i != 8 && !std::isdigit(static_cast<unsigned char>(d[i]))) return false;
  }
  return true;
}

bool looks_vllm(const nlohmann::json& doc) {
  return vllm_date(doc) && doc.contains("model_id") && doc.contains("num_prompts") &&
         (doc.contains("backend") || doc.contains("endpoint_type")) &&
         (doc.contains("completed") || doc.contains("mean_ttft_ms") ||
          doc.contains("mean_e2el_ms") || doc.contains("mean_e2e_latency_ms"));
}

DetectedTool vllm(const nlohmann::json& doc, const Where& w) {
  if (doc.contains("total_output_tokens_retokenized") || doc.contains("mean_e2e_latency_ms")) {
    w.fail("",
           "an sglang bench_serving file (total_output_tokens_retokenized, "
           "mean_e2e_latency_ms): a dialect of its own that the vLLM importer does not read");
  }
  if (doc.contains("total_input_sequences")) {
    w.fail(".total_input_sequences",
           "a vLLM pooling (embedding) benchmark: it has no generated tokens to import");
  }
  // No version field: the layout is told from keys that came and went.
  std::string layout = doc.contains("endpoint_type") ? "vllm bench serve" : "benchmark_serving.py";
  if (doc.contains("request_goodput:")) layout += " (old 'request_goodput:' key)";
  return {ImportTool::kVllmBenchServe, "vllm bench serve",
          "unknown (no version field; layout of " + layout + ")"};
}

bool looks_aiperf(const nlohmann::json& doc) {
  if (doc.contains("aiperf_version")) return true;
  if (is_object_member(doc, "records")) return true;
  return doc.contains("schema_version") &&
         (is_object_member(doc, "request_latency") || is_object_member(doc, "metrics"));
}

DetectedTool aiperf(const nlohmann::json& doc, const Where& w) {
  const std::string version = doc.contains("aiperf_version") && doc["aiperf_version"].is_string()
                                  ? doc["aiperf_version"].get<std::string>()
                                  : "unknown";
  if (is_object_member(doc, "records")) {
    w.fail(".records",
           "an AIPerf export of the early 0.1.x layout (metrics under \"records\", "
           "tags ttft/ttst), which this importer does not read; re-export with "
           "AIPerf 0.3 or later");
  }
  if (!doc.contains("schema_version")) {
    w.fail(".schema_version", "missing: an AIPerf " + version +
                                  " export without a schema version (before schema 1.0), "
                                  "which this importer does not read");
  }
  const nlohmann::json& schema = doc["schema_version"];
  for (const char* known : kAiperfSchemas) {
    if (schema == known)
      return {ImportTool::kAiperf, "AIPerf", version + " (schema " + known + ")"};
  }
  std::string what = "AIPerf schema_version " + text_of(schema) +
                     " is not one this importer reads "
                     "(flat profile export, schema 1.0 to 1.5)";
  if (schema.is_string() && schema.get<std::string>().rfind("2", 0) == 0) {
    what +=
        "; a 2.x file is AIPerf's native report: import the profile_export_aiperf.json that "
        "AIPerf projects from it";
  }
  w.fail(".schema_version", what);
}

DetectedTool guidellm(const nlohmann::json& doc, const Where& w) {
  if (!is_object_member(doc, "metadata") || !doc["metadata"].contains("version")) {
    w.fail(".metadata", std::string(doc.contains("args") ? "absent, with \"args\"" : "absent") +
                            ": a GuideLLM report of a layout before v0.5 (no metadata.version), "
                            "which this importer does not read (it reads report version 2, "
                            "GuideLLM v0.7)");
  }
  const nlohmann::json& meta = doc["metadata"];
  const std::string version =
      meta.contains("guidellm_version") && meta["guidellm_version"].is_string()
          ? meta["guidellm_version"].get<std::string>()
          : "unknown";
  if (meta["version"] != kGuidellmReportVersion) {
    w.fail(".metadata.version", "GuideLLM report version " + text_of(meta["version"]) +
                                    " (GuideLLM " + version +
                                    ") is not one this importer reads (version 2, GuideLLM v0.7)");
  }
  return {ImportTool::kGuidellm, "GuideLLM", version + " (report version 2)"};
}

bool looks_inference_perf(const nlohmann::json& doc) {
  return is_object_member(doc, "load_summary") && doc.contains("successes") &&
         doc.contains("failures");
}

DetectedTool inference_perf(const nlohmann::json& doc, const Where& w) {
  const nlohmann::json& successes = doc["successes"];
  if (successes.is_object() && successes.contains("rate")) {
    w.fail(".successes.rate",
           "an inference-perf *_prometheus_metrics.json (the server's own "
           "metrics), not a client measurement; import a "
           "*_lifecycle_metrics.json");
  }
  if (!doc.contains("benchmark_time_seconds")) {
    w.fail(".benchmark_time_seconds",
           "missing: an inference-perf report older than v0.6, "
           "which this importer does not read");
  }
  return {ImportTool::kInferencePerf, "inference-perf",
          "unknown (no version field; layout of v0.6 or later: benchmark_time_seconds)"};
}

}  // namespace

DetectedTool detect_tool(const nlohmann::json& doc, const std::string& file,
                         const std::string& root) {
  const Where w{file, root};
  if (!doc.is_object()) {
    w.fail("",
           std::string("expected an object (a load generator's results), got ") + doc.type_name());
  }
  if (doc.contains("schema") && doc["schema"] == "infergate.results/v1") {
    w.fail(".schema", "already an infergate results file: nothing to import");
  }
  if (looks_aiperf(doc)) return aiperf(doc, w);
  if (doc.contains("benchmarks") && doc["benchmarks"].is_array()) return guidellm(doc, w);
  if (looks_inference_perf(doc)) return inference_perf(doc, w);
  if (looks_vllm(doc)) return vllm(doc, w);
  w.fail("",
         "not the results of a tool this importer knows (vllm bench serve, AIPerf, "
         "GuideLLM, inference-perf); top-level keys: " +
             some_keys(doc));
}

}  // namespace infergate
