#include "common/imports/vllm_bench_serve_import.h"

#include <numeric>
#include <string_view>

#include "common/imports/imported_request.h"
#include "common/imports/tool_time.h"

namespace infergate {

namespace {

constexpr double kMsPerS = 1000.0;

constexpr const char* kSettingKeys[] = {"endpoint_type",    "backend",           "label",
                                        "model_id",         "tokenizer_id",      "num_prompts",
                                        "request_rate",     "burstiness",        "max_concurrency",
                                        "ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps"};
// --save-detailed: the arrays a per-request import needs.
constexpr const char* kDetailKeys[] = {"ttfts", "itls", "input_lens", "output_lens", "errors"};

void read_settings(const ImportReader& doc, ImportedRun& run) {
  for (const char* key : kSettingKeys) {
    if (doc.json().contains(key)) run.settings[key] = doc.json()[key];
  }
  run.model = doc.string("model_id");
  const nlohmann::json& rate = doc.at("request_rate").json();
  run.load = {{"mode", "open"}, {"num_requests", doc.count("num_prompts")}};
  if (rate.is_number()) {
    run.load["rate"] = doc.number("request_rate");
    const double burstiness = doc.optional_number("burstiness").value_or(1.0);
    run.load["arrival"] = burstiness == 1.0 ? "poisson" : "gamma";
    run.load["burstiness"] = burstiness;
  } else if (rate != "inf") {
    doc.fail("request_rate", "expected a number or \"inf\", got " + rate.dump());
  }
  if (const auto cap = doc.optional_count("max_concurrency")) run.load["max_concurrency"] = *cap;
  run.created_at = iso_from_compact_local(doc.string("date"));
}

bool has_details(const ImportReader& doc) {
  for (const char* key : kDetailKeys) {
    if (!doc.has(key)) return false;
  }
  return true;
}

// The arrays of one length, one entry per request sent.
size_t request_count(const ImportReader& doc) {
  const size_t n = doc.at("errors").expect_array().size();
  for (const char* key :
       {"ttfts", "itls", "input_lens", "output_lens", "latencies", "queue_times"}) {
    if (doc.has(key) && doc.at(key).expect_array().size() != n) {
      doc.fail(key, "has " + std::to_string(doc.at(key).size()) + " entries, but errors has " +
                        std::to_string(n) + " (one per request)");
    }
  }
  return n;
}

ImportedRequest read_request(const ImportReader& doc, size_t i) {
  ImportedRequest r;
  r.error = doc.at("errors").element(i).string();
  r.ok = r.error.empty();  // vLLM writes "" for a success
  r.input_tokens = doc.at("input_lens").element(i).count();
  r.output_tokens = doc.at("output_lens").element(i).count();
  if (doc.has("queue_times")) r.send_lag_ms = doc.at("queue_times").element(i).number() * kMsPerS;
  const ImportReader gaps = doc.at("itls").element(i).expect_array();
  std::vector<double> gaps_ms;
  for (size_t k = 0; k < gaps.size(); ++k) gaps_ms.push_back(gaps.element(k).number() * kMsPerS);
  const double ttft = doc.at("ttfts").element(i).number() * kMsPerS;
  if (!r.ok) return r;
  r.ttft_ms = ttft;
  // E2E is vLLM's latency (last content chunk - send); before `latencies` existed, the same sum.
  r.e2e_ms = doc.has("latencies") ? doc.at("latencies").element(i).number() * kMsPerS
                                  : std::accumulate(gaps_ms.begin(), gaps_ms.end(), ttft);
  r.gaps_ms = std::move(gaps_ms);
  return r;
}

void import_requests(const ImportReader& doc, ImportedRun& run) {
  const size_t n = request_count(doc);
  std::vector<ImportedRequest> requests;
  for (size_t i = 0; i < n; ++i) requests.push_back(read_request(doc, i));
  summarize_requests(requests, run);
  const int64_t completed = doc.count("completed");
  if (completed != run.summary.num_completed) {
    doc.fail("completed", std::to_string(completed) + " disagrees with the " +
                              std::to_string(run.summary.num_completed) +
                              " requests whose errors entry is \"\"");
  }
  if (const auto failed = doc.optional_count("failed");
      failed && *failed != run.summary.num_errors) {
    doc.fail("failed", std::to_string(*failed) + " disagrees with the " +
                           std::to_string(run.summary.num_errors) +
                           " requests with an error in errors");
  }
  run.notes.push_back(
      "ttft_ms, tpot_ms, itl_ms, e2e_ms, input_tokens, output_tokens: computed "
      "from vLLM's per-request arrays (--save-detailed) with our definitions; "
      "itl_ms from its per-chunk gaps (itls)");
  if (doc.has("queue_times")) {
    run.notes.push_back(
        "send_lag_ms: vLLM's queue_times, the wait for a --max-concurrency slot "
        "between the request's release and its send, over every request");
  }
}

// vLLM's mean_/median_/pNN_<metric>_ms summary, or nullopt when it wrote none.
std::optional<ImportedStats> summary_stats(const ImportReader& doc, const std::string& metric) {
  const std::string mean = "mean_" + metric + "_ms";
  if (!doc.has(mean.c_str())) return std::nullopt;
  ImportedStats s;
  s.mean = doc.number(mean.c_str());
  s.p50 = doc.optional_number(("median_" + metric + "_ms").c_str());
  s.p90 = doc.optional_number(("p90_" + metric + "_ms").c_str());
  s.p95 = doc.optional_number(("p95_" + metric + "_ms").c_str());
  s.p99 = doc.optional_number(("p99_" + metric + "_ms").c_str());
  return s;
}

void import_summaries(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.num_completed = doc.count("completed");
  const auto failed = doc.optional_count("failed");
  if (!failed) {
    doc.fail("failed",
             "missing, and no per-request errors to count the failures from (a vLLM "
             "older than the `failed` key, run without --save-detailed)");
  }
  s.num_errors = *failed;
  s.num_requests = s.num_completed + s.num_errors;
  s.error_classes = {};
  run.measured.insert({"num_requests", "num_completed", "num_errors", "num_aborted"});
  const std::pair<const char*, const char*> metrics[] = {
      {"ttft", "ttft_ms"}, {"tpot", "tpot_ms"}, {"itl", "itl_ms"}, {"e2el", "e2e_ms"}};
  for (const auto& [theirs, ours] : metrics) {
    std::optional<ImportedStats> stats = summary_stats(doc, theirs);
    if (!stats) continue;
    // Every successful request has a TTFT and an E2E; TPOT and ITL counts are not written.
    if (std::string_view(theirs) == "ttft" || std::string_view(theirs) == "e2el") {
      stats->count = s.num_completed;
    }
    run.distributions[ours] = *stats;
  }
  if (s.num_completed > 0) {  // totals over successful requests: their means are exact
    for (const auto& [total, ours] : {std::pair{"total_input_tokens", "input_tokens"},
                                      std::pair{"total_output_tokens", "output_tokens"}}) {
      ImportedStats& tokens = run.distributions[ours];
      tokens.count = s.num_completed;
      tokens.mean = doc.number(total) / double(s.num_completed);
    }
  }
  run.notes.push_back(
      "no per-request arrays (run without --save-detailed): distributions are "
      "vLLM's summaries (mean, median as p50, and only the pNN it was asked "
      "for); the statistics it did not write (min, max, other percentiles, the "
      "TPOT and ITL counts) are left out, not estimated");
  run.notes.push_back("input_tokens, output_tokens: only their means (vLLM writes totals only)");
}

void read_rates(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.duration_s = doc.number("duration");
  s.request_throughput_rps = doc.number("request_throughput");
  s.output_throughput_tps = doc.number("output_throughput");
  s.total_throughput_tps = doc.number("total_token_throughput");
  run.measured.insert(
      {"duration_s", "request_throughput_rps", "output_throughput_tps", "total_throughput_tps"});
  for (const char* key : {"request_goodput", "request_goodput:"}) {
    if (!doc.has(key)) continue;
    s.goodput_rps = doc.number(key);
    run.measured.insert({"goodput_rps", "good_fraction"});
    run.notes.push_back(std::string("goodput_rps: vLLM's ") + key +
                        " under the --goodput SLOs it was given (the file does not say which)");
  }
  if (const auto peak = doc.optional_number("max_concurrent_requests")) {
    s.peak_concurrency = *peak;
    run.measured.insert("peak_concurrency");
    run.notes.push_back(
        "peak_concurrency: vLLM's max_concurrent_requests, which counts "
        "successful requests only (ours counts errors too)");
  }
  if (const auto rate = doc.optional_number("spec_decode_acceptance_rate")) {
    s.spec_acceptance_rate = *rate / 100.0;  // vLLM writes percent
    run.measured.insert("spec_acceptance_rate");
  }
}

}  // namespace

ImportedRun import_vllm_bench_serve(const ImportReader& doc, const DetectedTool& detected) {
  doc.expect_object();
  ImportedRun run;
  run.tool = detected.name;
  run.tool_slug = "vllm-bench-serve";
  run.version = detected.version;
  read_settings(doc, run);
  if (has_details(doc)) {
    import_requests(doc, run);
  } else {
    import_summaries(doc, run);
  }
  read_rates(doc, run);
  run.notes.push_back(
      "ttft_ms, e2e_ms: from the actual send (vLLM starts its clock after the "
      "--max-concurrency wait), not from the scheduled send as ours: client-side "
      "queueing is left out; e2e_ms ends at the last content chunk");
  run.notes.push_back(
      "duration_s: vLLM's duration, from just before the first request to the "
      "last completion (ours starts at the first scheduled send); the "
      "throughputs are vLLM's, over that window");
  run.notes.push_back(
      "output_tokens: the server's usage.completion_tokens (or vLLM's "
      "re-tokenization of the text when the server gave none)");
  run.notes.push_back(
      "no per-request records: vLLM records no scheduled send times (its "
      "start_times are perf_counter readings of the actual send), and our "
      "records are anchored at the scheduled send");
  return run;
}

}  // namespace infergate
