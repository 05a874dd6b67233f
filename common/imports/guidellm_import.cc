#include "common/imports/guidellm_import.h"

#include <array>

#include "common/imports/imported_request.h"
#include "common/imports/tool_time.h"

namespace infergate {

namespace {

constexpr double kMsPerS = 1000.0;

std::string model_of(const ImportReader& doc, const ImportReader& config) {
  if (const auto backend = config.find("backend")) {
    if (const auto model = backend->optional_string("model")) return *model;
  }
  if (const auto spec = doc.find("config")) {
    if (const auto s = spec->find("spec")) {
      if (const auto backend = s->find("backend"))
        return backend->optional_string("model").value_or("");
    }
  }
  return "";
}

// GuideLLM's strategy in our load's names: synchronous and concurrent are closed loops,
// constant and poisson open ones; throughput sends as fast as it can (open, no rate).
nlohmann::json load_of(const ImportReader& strategy) {
  const std::string type = strategy.string("type_");
  if (type == "synchronous") return {{"mode", "closed"}, {"concurrency", 1}};
  if (type == "concurrent") return {{"mode", "closed"}, {"concurrency", strategy.count("streams")}};
  nlohmann::json load = {{"mode", "open"}};
  if (type == "constant" || type == "poisson") {
    load["arrival"] = type;
    load["rate"] = strategy.number("rate");
  }
  return load;
}

void read_settings(const ImportReader& doc, const ImportReader& bench, ImportedRun& run) {
  const ImportReader config = bench.at("config").expect_object();
  run.settings = {{"strategy", config.at("strategy").json()}};
  for (const char* key : {"constraints", "sample_size", "warmup", "cooldown"}) {
    if (config.json().contains(key)) run.settings[key] = config.json()[key];
  }
  run.model = model_of(doc, config);
  run.load = load_of(config.at("strategy").expect_object());
  run.created_at = iso_utc_from_epoch(bench.number("start_time"));
  if (const auto meta = doc.find("metadata")) {
    for (const char* key : {"platform", "python_version"}) {
      if (const auto v = meta->optional_string(key)) run.machine[key] = *v;
    }
  }
  if (const auto backend = config.find("backend")) {
    if (const auto target = backend->optional_string("target")) run.machine["target"] = *target;
  }
}

// request_totals {successful, errored, incomplete, total}, which must add up.
std::array<int64_t, 3> totals(const ImportReader& metrics) {
  const ImportReader t = metrics.at("request_totals").expect_object();
  const std::array<int64_t, 3> n = {t.count("successful"), t.count("errored"),
                                    t.count("incomplete")};
  if (n[0] + n[1] + n[2] != t.count("total")) {
    t.fail("total", std::to_string(t.count("total")) +
                        " is not successful + errored + incomplete (" + std::to_string(n[0]) +
                        " + " + std::to_string(n[1]) + " + " + std::to_string(n[2]) + ")");
  }
  return n;
}

std::optional<double> send_lag_ms(const ImportReader& item) {
  const ImportReader timings = item.at("info").at("timings").expect_object();
  const auto targeted = timings.optional_number("targeted_start");
  const auto start = timings.optional_number("request_start");
  if (!targeted || !start) return std::nullopt;
  if (*start < *targeted) timings.fail("request_start", "is before targeted_start");
  return (*start - *targeted) * kMsPerS;
}

ImportedRequest read_request(const ImportReader& item, const std::string& status) {
  ImportedRequest r;
  r.ok = status == "successful";
  r.aborted = status == "incomplete";
  r.send_lag_ms = send_lag_ms(item);
  r.input_tokens = item.optional_count("prompt_tokens").value_or(0);
  if (!r.ok) {
    r.error = item.at("info").optional_string("error").value_or("");
    return r;
  }
  r.output_tokens = item.optional_count("output_tokens").value_or(0);
  r.ttft_ms = item.optional_number("time_to_first_token_ms");
  r.e2e_ms = item.number("request_latency") * kMsPerS;
  r.tpot_ms = item.optional_number("inter_token_latency_ms");
  return r;
}

// Every request, or nullopt when the report keeps a sample of them.
std::optional<std::vector<ImportedRequest>> all_requests(const ImportReader& bench,
                                                         const std::array<int64_t, 3>& n) {
  const std::optional<ImportReader> lists = bench.find("requests");
  if (!lists) return std::nullopt;
  std::vector<ImportedRequest> requests;
  const char* statuses[] = {"successful", "errored", "incomplete"};
  for (size_t k = 0; k < 3; ++k) {
    const std::optional<ImportReader> list = lists->find(statuses[k]);
    if (!list || int64_t(list->expect_array().size()) != n[k]) return std::nullopt;
    for (size_t i = 0; i < list->size(); ++i) {
      requests.push_back(read_request(list->element(i).expect_object(), statuses[k]));
    }
  }
  return requests;
}

// A DistributionSummary of successful requests, `factor` to our unit; `weighted`: only min and
// max mean what ours do.
ImportedStats successful(const ImportReader& metrics, const char* key, double factor,
                         bool weighted) {
  const ImportReader ds = metrics.at(key).at("successful").expect_object();
  ImportedStats s;
  s.min = ds.number("min");
  s.max = ds.number("max");
  if (!weighted) {
    s.count = ds.count("count");
    s.mean = ds.number("mean");
    const ImportReader p = ds.at("percentiles").expect_object();
    s.p50 = p.optional_number("p50");
    s.p90 = p.optional_number("p90");
    s.p95 = p.optional_number("p95");
    s.p99 = p.optional_number("p99");
  }
  return s.scaled(factor);
}

void map_summaries(const ImportReader& metrics, const std::array<int64_t, 3>& n, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.num_completed = n[0];
  s.num_errors = n[1];
  s.num_aborted = n[2];
  s.num_requests = n[0] + n[1] + n[2];
  run.measured.insert({"num_requests", "num_completed", "num_errors", "num_aborted"});
  run.distributions["ttft_ms"] = successful(metrics, "time_to_first_token_ms", 1.0, false);
  run.distributions["e2e_ms"] = successful(metrics, "request_latency", kMsPerS, false);
  run.distributions["tpot_ms"] = successful(metrics, "inter_token_latency_ms", 1.0, true);
  run.distributions["input_tokens"] = successful(metrics, "prompt_token_count", 1.0, false);
  run.distributions["output_tokens"] = successful(metrics, "output_token_count", 1.0, false);
  run.notes.push_back(
      "the report keeps a sample of the requests, not all: distributions are "
      "GuideLLM's summaries of successful requests, whose percentiles are "
      "nearest-rank (the first value at or above p), not interpolated as ours");
  run.notes.push_back(
      "tpot_ms: only min and max; GuideLLM's mean, percentiles and count of "
      "inter_token_latency_ms are weighted by output tokens - 1");
}

// Ours are totals over the window; GuideLLM's *_per_second are distributions of instantaneous
// rates, which are not.
void derive_rates(const ImportReader& bench, const ImportReader& metrics, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.duration_s = bench.number("duration");
  const double in = metrics.at("prompt_token_count").at("successful").number("total_sum");
  const double out = metrics.at("output_token_count").at("successful").number("total_sum");
  if (s.duration_s > 0) {
    s.request_throughput_rps = double(s.num_completed) / s.duration_s;
    s.output_throughput_tps = out / s.duration_s;
    s.total_throughput_tps = (in + out) / s.duration_s;
  }
  run.measured.insert(
      {"duration_s", "request_throughput_rps", "output_throughput_tps", "total_throughput_tps"});
}

void add_notes(ImportedRun& run, bool all) {
  if (all) {
    run.notes.push_back(
        "ttft_ms, tpot_ms, e2e_ms, send_lag_ms, input_tokens, output_tokens: "
        "computed from every request of the report with our definitions; "
        "tpot_ms per request is GuideLLM's inter_token_latency_ms, (last token - "
        "first token) / (out - 1), averaged without its token weights");
  }
  run.notes.push_back(
      "itl_ms: GuideLLM records no gaps between chunks (its "
      "inter_token_latency_ms is our TPOT), so our ITL cannot be recovered");
  run.notes.push_back(
      "GuideLLM's time_per_output_token_ms ((last token - send) / out, TTFT "
      "included) has no counterpart in our metrics and is not imported");
  run.notes.push_back(
      "ttft_ms, e2e_ms: from the actual send (GuideLLM's request_start), not "
      "from the scheduled send (its targeted_start) as ours; send_lag_ms is "
      "request_start - targeted_start; e2e_ms ends at the request's end, after "
      "the last token");
  run.notes.push_back(
      "duration_s: GuideLLM's measured window (warm-up and cool-down excluded); "
      "the throughputs are its successful requests' totals over it");
  run.notes.push_back(
      "num_aborted: GuideLLM's incomplete requests (cut off when the benchmark "
      "ended)");
  run.notes.push_back(
      "no per-request records written: GuideLLM records only the first and last "
      "token times of a request, not every token's, which our records hold");
}

ImportedRun import_benchmark(const ImportReader& doc, const ImportReader& bench,
                             const DetectedTool& detected) {
  if (bench.at("type_").json() != "generative_benchmark") {
    bench.fail("type_", bench.at("type_").json().dump() + " is not \"generative_benchmark\"");
  }
  ImportedRun run;
  run.tool = detected.name;
  run.tool_slug = "guidellm";
  run.version = detected.version;
  read_settings(doc, bench, run);
  const ImportReader metrics = bench.at("metrics").expect_object();
  const std::array<int64_t, 3> n = totals(metrics);
  const std::optional<std::vector<ImportedRequest>> requests = all_requests(bench, n);
  if (requests) {
    summarize_requests(*requests, run);
  } else {
    map_summaries(metrics, n, run);
  }
  derive_rates(bench, metrics, run);
  add_notes(run, requests.has_value());
  return run;
}

}  // namespace

std::vector<ImportedRun> import_guidellm(const ImportReader& doc, const DetectedTool& detected) {
  const ImportReader benchmarks = doc.expect_object().at("benchmarks").expect_array();
  if (benchmarks.size() == 0) benchmarks.fail("no benchmarks in the report");
  std::vector<ImportedRun> runs;
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    runs.push_back(import_benchmark(doc, benchmarks.element(i).expect_object(), detected));
    if (benchmarks.size() > 1) {
      runs.back().run_label = "benchmark-" + std::to_string(i) + "-" +
                              runs.back().settings["strategy"].value("type_", "");
    }
  }
  return runs;
}

}  // namespace infergate
