#include "common/imports/inference_perf_import.h"

namespace infergate {

namespace {

constexpr double kMsPerS = 1000.0;

// {mean, min, max, median | p50, p90, p95, p99, ...}; nullopt where the report has null (no data).
std::optional<ImportedStats> dist(const ImportReader& parent, const char* key, double factor) {
  const std::optional<ImportReader> d = parent.find(key);
  if (!d) return std::nullopt;
  d->expect_object();
  ImportedStats s;
  s.mean = d->number("mean");
  s.min = d->number("min");
  s.max = d->number("max");
  s.p50 = d->has("median") ? d->optional_number("median") : d->optional_number("p50");
  s.p90 = d->optional_number("p90");
  s.p95 = d->optional_number("p95");
  s.p99 = d->optional_number("p99");
  return s.scaled(factor);
}

void read_counts(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  const ImportReader load = doc.at("load_summary").expect_object();
  s.num_requests = load.count("count");
  s.num_completed = doc.at("successes").expect_object().count("count");
  s.num_errors = doc.at("failures").expect_object().count("count");
  if (s.num_completed + s.num_errors != s.num_requests) {
    load.fail("count",
              std::to_string(s.num_requests) + " is not successes.count + failures.count (" +
                  std::to_string(s.num_completed) + " + " + std::to_string(s.num_errors) + ")");
  }
  run.measured.insert({"num_requests", "num_completed", "num_errors", "num_aborted"});
  // Stage reports carry the stage's load; the whole-run summary does not.
  for (const char* key : {"requested_rate", "concurrency", "send_duration"}) {
    if (load.has(key)) run.settings[key] = load.at(key).json();
  }
  if (const auto rate = load.optional_number("requested_rate")) {
    run.load = {{"mode", "open"}, {"rate", *rate}};
  } else if (const auto users = load.optional_count("concurrency")) {
    run.load = {{"mode", "closed"}, {"concurrency", *users}};
  }
  if (const auto labels = doc.at("failures").find("by_label")) {
    for (const auto& [label, entry] : labels->expect_object().json().items()) {
      const ImportReader e(entry, doc.file(), labels->path() + "." + label);
      std::string first;
      if (const auto messages = e.find("messages"); messages && messages->expect_array().size()) {
        first = messages->element(0).optional_string("message").value_or("");
      }
      s.error_classes.push_back({label, e.count("count"), first});
    }
  }
}

void set_dist(ImportedRun& run, const char* ours, std::optional<ImportedStats> stats,
              std::optional<int64_t> count) {
  if (!stats) return;
  stats->count = count;
  run.distributions[ours] = *stats;
}

void read_latencies(const ImportReader& doc, ImportedRun& run) {
  const ImportReader successes = doc.at("successes");
  const ImportReader latency = successes.at("latency").expect_object();
  const int64_t ok = run.summary.num_completed;
  // Every success has a request latency; TTFT, TPOT and ITL only streamed ones with more than
  // one token, whose number the report does not give.
  set_dist(run, "e2e_ms", dist(latency, "request_latency", kMsPerS), ok);
  set_dist(run, "ttft_ms", dist(latency, "time_to_first_token", kMsPerS), std::nullopt);
  set_dist(run, "tpot_ms", dist(latency, "time_per_output_token", kMsPerS), std::nullopt);
  set_dist(run, "itl_ms", dist(latency, "inter_token_latency", kMsPerS), std::nullopt);
  set_dist(run, "send_lag_ms", dist(doc.at("load_summary"), "schedule_delay", kMsPerS),
           std::nullopt);
  // The server's usage counts where the report has them (v0.6+), else its client-side ones.
  set_dist(run, "input_tokens",
           successes.has("prompt_tokens") ? dist(successes, "prompt_tokens", 1.0)
                                          : dist(successes, "prompt_len", 1.0),
           ok);
  set_dist(run, "output_tokens",
           successes.has("output_tokens") ? dist(successes, "output_tokens", 1.0)
                                          : dist(successes, "output_len", 1.0),
           ok);
}

void read_rates(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.duration_s = doc.number("benchmark_time_seconds");
  const ImportReader t = doc.at("successes").at("throughput").expect_object();
  s.request_throughput_rps = t.number("requests_per_sec");
  s.output_throughput_tps = t.number("output_tokens_per_sec");
  s.total_throughput_tps = t.number("total_tokens_per_sec");
  run.measured.insert(
      {"duration_s", "request_throughput_rps", "output_throughput_tps", "total_throughput_tps"});
  // The server's cached prompt tokens (usage.prompt_tokens_details) over all prompt tokens.
  if (const auto prompt = doc.at("successes").find("prompt_tokens")) {
    const auto cached = prompt->optional_number("cached");
    const auto total = prompt->optional_number("total");
    if (cached && total && *total > 0 && *cached <= *total) {
      s.prefix_cache_hit_rate = *cached / *total;
      run.measured.insert("prefix_cache_hit_rate");
      run.notes.push_back(
          "prefix_cache_hit_rate: the server's cached prompt tokens over all "
          "prompt tokens of successful requests (inference-perf's prompt_tokens)");
    }
  }
}

void add_notes(ImportedRun& run) {
  run.notes.push_back(
      "distributions are inference-perf's summaries (numpy-linear percentiles, "
      "as ours); it writes no counts, so only e2e_ms, input_tokens and "
      "output_tokens have one (the successful requests)");
  run.notes.push_back(
      "ttft_ms, tpot_ms, itl_ms: streamed successes with more than one output "
      "token only (inference-perf leaves single-token responses out of TTFT too)");
  run.notes.push_back(
      "itl_ms: inference-perf's inter_token_latency, per token with 0 gaps "
      "between tokens of one chunk, as ours, but tokens are counted by "
      "re-tokenizing each chunk with its configured tokenizer");
  run.notes.push_back(
      "ttft_ms, e2e_ms: from the actual send, not from the scheduled send as "
      "ours; send_lag_ms is inference-perf's schedule_delay (actual - scheduled "
      "start)");
  run.notes.push_back(
      "duration_s: inference-perf's benchmark_time_seconds, first send to last "
      "end of any request (ours starts at the first scheduled send)");
  run.notes.push_back(
      "inference-perf's normalized_time_per_output_token (latency / output "
      "tokens, TTFT included) has no counterpart in our metrics and is not "
      "imported");
  run.notes.push_back(
      "created_at: the file's modification time (inference-perf records no "
      "date)");
  run.notes.push_back("no per-request records: the lifecycle report holds summaries only");
}

}  // namespace

ImportedRun import_inference_perf(const ImportReader& doc, const DetectedTool& detected) {
  doc.expect_object();
  ImportedRun run;
  run.tool = detected.name;
  run.tool_slug = "inference-perf";
  run.version = detected.version;
  read_counts(doc, run);
  read_latencies(doc, run);
  read_rates(doc, run);
  add_notes(run);
  return run;
}

}  // namespace infergate
