#include "server/server_metrics.h"

#include <string_view>

namespace infergate {

namespace {

// vLLM's buckets (vllm/v1/metrics/loggers.py), with finer ones below them for inter-token
// latency: a CPU engine's tokens come sub-millisecond apart.
std::vector<double> ttft_buckets() {
  return {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25, 0.5,   0.75,
          1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160., 640.0, 2560.0};
}
std::vector<double> itl_buckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1,  0.15, 0.2,
          0.3,    0.4,     0.5,    0.75,  1.0,    2.5,   5.0,  7.5,   10.0, 20.0,  40.0, 80.0};
}
std::vector<double> e2e_buckets() {
  return {0.01, 0.05, 0.1,  0.3,  0.5,  0.8,  1.0,   1.5,   2.0,   2.5,   5.0,    10.0,
          15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
}

struct Exposition {
  std::string labels;
  std::string text;

  void header(const std::string& name, const char* type, const char* help) {
    text += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }
  void sample(const std::string& name, double value, const std::string& more_labels = "") {
    const std::string all = more_labels.empty() ? labels : labels + "," + more_labels;
    char number[32];
    std::snprintf(number, sizeof(number), "%.17g", value);
    text += name + "{" + all + "} " + number + "\n";
  }
  void scalar(const std::string& name, const char* type, const char* help, double value) {
    header(name, type, help);
    sample(name, value);
  }
};

// Structured output's cost (docs/server.md): the token masks the grammars computed and the
// tokens jump-forward drafted and kept. Zero until a request asks for structure.
void render_structured_output(Exposition& e, const EngineStats& s) {
  e.scalar("infergate:grammar_token_masks_total", "counter",
           "Token masks applied for structured output (one per constrained row).",
           double(s.grammar_masks));
  e.scalar("infergate:grammar_mask_seconds_total", "counter",
           "Time spent computing and applying structured output's token masks.",
           double(s.grammar_mask_ns) * 1e-9);
  e.scalar("infergate:grammar_forced_tokens_total", "counter",
           "Tokens the grammar forced, drafted by jump-forward and kept.",
           double(s.grammar_forced_accepted));
}

// Speculative decoding's counters (docs/speculative.md), vLLM's spec_decode names.
void render_spec_decode(Exposition& e, const EngineStats& s) {
  e.scalar("infergate:spec_decode_num_drafts_total", "counter",
           "Verifications: a sequence with draft tokens in a step.", double(s.spec_num_drafts));
  e.scalar("infergate:spec_decode_num_draft_tokens_total", "counter", "Draft tokens verified.",
           double(s.spec_num_draft_tokens));
  e.scalar("infergate:spec_decode_num_accepted_tokens_total", "counter", "Draft tokens accepted.",
           double(s.spec_num_accepted_tokens));
  e.header("infergate:spec_decode_num_accepted_tokens_per_pos_total", "counter",
           "Draft tokens accepted at each draft position (0: the first).");
  for (size_t i = 0; i < s.spec_accepted_per_position.size(); ++i) {
    e.sample("infergate:spec_decode_num_accepted_tokens_per_pos_total",
             double(s.spec_accepted_per_position[i]), "position=\"" + std::to_string(i) + "\"");
  }
  e.scalar("infergate:spec_decode_propose_seconds_total", "counter",
           "Time spent proposing draft tokens (n-gram scans, draft model forwards).",
           double(s.spec_propose_ns) * 1e-9);
}

// The prefill/decode handoff (docs/disaggregation.md): exports on a prefill worker, reads on a
// decode worker.
struct KvReadCounts {
  int64_t reads, fallbacks, bytes, microseconds, imported;
};

void render_kv_transfer(Exposition& e, const KvTransportStats& t, const KvReadCounts& r) {
  e.header("infergate:kv_transfer_exports_total", "counter",
           "Prompt KV exports by what became of them.");
  e.sample("infergate:kv_transfer_exports_total", double(t.exports), "outcome=\"exposed\"");
  e.sample("infergate:kv_transfer_exports_total", double(t.exports_released),
           "outcome=\"released\"");
  e.sample("infergate:kv_transfer_exports_total", double(t.exports_expired), "outcome=\"expired\"");
  e.sample("infergate:kv_transfer_exports_total", double(t.exports_refused), "outcome=\"refused\"");
  e.scalar("infergate:kv_transfer_exports_held", "gauge",
           "Exports held for a decode worker to read.", double(t.exports_held));
  e.scalar("infergate:kv_transfer_exported_bytes_held", "gauge", "Bytes of the held exports.",
           double(t.exported_bytes_held));
  e.header("infergate:kv_transfer_reads_total", "counter",
           "Decode-side KV reads: done, or fallen back to computing the prompt.");
  e.sample("infergate:kv_transfer_reads_total", double(r.reads), "outcome=\"ok\"");
  e.sample("infergate:kv_transfer_reads_total", double(r.fallbacks), "outcome=\"fallback\"");
  e.scalar("infergate:kv_transfer_read_bytes_total", "counter", "KV bytes read.", double(r.bytes));
  e.scalar("infergate:kv_transfer_read_seconds_total", "counter",
           "Time spent reading KV (each read's, summed).", double(r.microseconds) / 1e6);
  e.scalar("infergate:kv_transfer_imported_blocks_total", "counter",
           "KV blocks adopted into the prefix cache.", double(r.imported));
}

}  // namespace

ServerMetrics::ServerMetrics() : ttft_(ttft_buckets()), itl_(itl_buckets()), e2e_(e2e_buckets()) {}

void ServerMetrics::request_admitted(int prompt_tokens) { prompt_tokens_ += prompt_tokens; }
void ServerMetrics::first_token(double seconds) { ttft_.observe(seconds); }
void ServerMetrics::inter_token(double seconds) { itl_.observe(seconds); }
void ServerMetrics::tokens_generated(int count) { generation_tokens_ += count; }

void ServerMetrics::request_finished(FinishReason reason, double seconds) {
  e2e_.observe(seconds);
  if (reason == FinishReason::kLength)
    ++finished_length_;
  else if (reason == FinishReason::kAbort)
    ++finished_abort_;
  else if (reason == FinishReason::kError)  // the engine could never schedule it
    ++finished_error_;
  else
    ++finished_stop_;
}

void ServerMetrics::request_refused(int http_status) {
  if (http_status == 429)
    ++refused_429_;
  else if (http_status >= 500)
    ++refused_5xx_;
  else
    ++refused_4xx_;
}

void ServerMetrics::kv_read(bool fell_back, int64_t bytes, double seconds) {
  ++(fell_back ? kv_read_fallbacks_ : kv_reads_);
  kv_read_bytes_ += bytes;
  kv_read_microseconds_ += int64_t(seconds * 1e6);
}

void ServerMetrics::kv_blocks_imported(int blocks) { kv_blocks_imported_ += blocks; }

std::string ServerMetrics::render(const std::string& model, const EngineStats& stats,
                                  const KvTransportStats* transport) const {
  Exposition e{"model_name=\"" + prometheus_label_value(model) + "\"", ""};
  const std::string& labels = e.labels;
  e.scalar("infergate:num_requests_running", "gauge", "Requests in the running batch.",
           double(stats.num_running));
  e.scalar("infergate:num_requests_waiting", "gauge", "Requests waiting to be scheduled.",
           double(stats.num_waiting));
  e.scalar("infergate:kv_cache_usage_perc", "gauge", "KV cache usage: 1 means every block is held.",
           stats.kv_usage);
  e.scalar("infergate:num_preemptions_total", "counter", "Preemptions by the scheduler.",
           double(stats.num_preemptions));
  e.scalar("infergate:prefix_cache_queries_total", "counter",
           "Prompt tokens looked up in the prefix cache.", double(stats.prefix_cache.queries));
  e.scalar("infergate:prefix_cache_hits_total", "counter",
           "Prompt tokens found in the prefix cache.", double(stats.prefix_cache.hits));
  e.scalar("infergate:prompt_tokens_total", "counter", "Prompt tokens of admitted requests.",
           double(prompt_tokens_));
  e.scalar("infergate:generation_tokens_total", "counter", "Generated tokens sent.",
           double(generation_tokens_));
  e.header("infergate:request_success_total", "counter", "Finished requests by finish reason.");
  e.sample("infergate:request_success_total", double(finished_stop_), "finished_reason=\"stop\"");
  e.sample("infergate:request_success_total", double(finished_length_),
           "finished_reason=\"length\"");
  e.sample("infergate:request_success_total", double(finished_abort_), "finished_reason=\"abort\"");
  e.sample("infergate:request_success_total", double(finished_error_), "finished_reason=\"error\"");
  e.header("infergate:request_refused_total", "counter",
           "Requests answered with an error status instead of a completion.");
  e.sample("infergate:request_refused_total", double(refused_4xx_), "status=\"4xx\"");
  e.sample("infergate:request_refused_total", double(refused_429_), "status=\"429\"");
  e.sample("infergate:request_refused_total", double(refused_5xx_), "status=\"5xx\"");
  e.header("infergate:time_to_first_token_seconds", "histogram", "Time to first token.");
  e.text += ttft_.render("infergate:time_to_first_token_seconds", labels);
  e.header("infergate:inter_token_latency_seconds", "histogram", "Time between output tokens.");
  e.text += itl_.render("infergate:inter_token_latency_seconds", labels);
  e.header("infergate:e2e_request_latency_seconds", "histogram", "End-to-end request latency.");
  e.text += e2e_.render("infergate:e2e_request_latency_seconds", labels);
  if (stats.speculative) render_spec_decode(e, stats);
  render_structured_output(e, stats);
  if (transport) {
    render_kv_transfer(e, *transport,
                       {kv_reads_, kv_read_fallbacks_, kv_read_bytes_, kv_read_microseconds_,
                        kv_blocks_imported_});
  }
  return e.text;
}

std::string with_metrics_prefix(const std::string& text, const std::string& prefix) {
  static const std::string kOwn = "infergate:";
  if (prefix + ":" == kOwn) return text;
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string_view line(text.data() + begin, end - begin);
    size_t name = 0;
    if (line.substr(0, 7) == "# HELP " || line.substr(0, 7) == "# TYPE ") name = 7;
    if (line.substr(name, kOwn.size()) == kOwn) {
      out.append(line.substr(0, name)).append(prefix + ":").append(line.substr(name + kOwn.size()));
    } else {
      out.append(line);
    }
    begin = end;
  }
  return out;
}

}  // namespace infergate
