#include "server/server_metrics.h"

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

std::string ServerMetrics::render(const std::string& model, const EngineStats& stats) const {
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
  return e.text;
}

}  // namespace infergate
