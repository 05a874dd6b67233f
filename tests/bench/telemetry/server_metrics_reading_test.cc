// Reading a server's /metrics: histogram deltas and PromQL's histogram_quantile against
// hand-computed values, and the dialects (infergate, vLLM old and new, SGLang, llama-server).
#include <catch2/catch.hpp>
#include <string>

#include "bench/telemetry/histogram_quantile.h"
#include "bench/telemetry/metrics_dialect.h"

namespace infergate {
namespace {

HistogramSnapshot histogram(const std::string& text, const std::string& name) {
  return *find_histogram(parse_prometheus_text(text, "test"), name);
}

// Two engines (label engine) of one server: summed by le, as PromQL's sum by (le).
const char* kFirst =
    "t_bucket{engine=\"0\",le=\"0.1\"} 1\n"
    "t_bucket{engine=\"0\",le=\"0.5\"} 2\n"
    "t_bucket{engine=\"0\",le=\"+Inf\"} 2\n"
    "t_sum{engine=\"0\"} 0.3\n"
    "t_count{engine=\"0\"} 2\n";
const char* kLast =
    "t_bucket{engine=\"0\",le=\"0.1\"} 3\n"
    "t_bucket{engine=\"0\",le=\"0.5\"} 8\n"
    "t_bucket{engine=\"0\",le=\"+Inf\"} 11\n"
    "t_sum{engine=\"0\"} 4.3\n"
    "t_count{engine=\"0\"} 11\n"
    "t_bucket{engine=\"1\",le=\"0.1\"} 0\n"
    "t_bucket{engine=\"1\",le=\"0.5\"} 1\n"
    "t_bucket{engine=\"1\",le=\"+Inf\"} 1\n"
    "t_sum{engine=\"1\"} 0.2\n"
    "t_count{engine=\"1\"} 1\n";

TEST_CASE("histograms: the delta between two scrapes and its quantiles, by hand") {
  const HistogramSnapshot d = histogram_delta(histogram(kLast, "t"), histogram(kFirst, "t"));
  // last (summed): le 0.1 -> 3, 0.5 -> 9, +Inf -> 12; sum 4.5, count 12. Minus first.
  REQUIRE(d.buckets.size() == 3);
  CHECK(d.buckets[0].count == 2);
  CHECK(d.buckets[1].count == 7);
  CHECK(d.buckets[2].count == 10);
  CHECK(d.count == 10);
  CHECK(*histogram_mean(d) == Approx(0.42));  // (4.5 - 0.3) / 10
  // q=0.5: rank 5, in (0.1, 0.5] holding 5 of the ranks 2..7: 0.1 + 0.4 * (5 - 2) / 5 = 0.34
  CHECK(*histogram_quantile(0.5, d) == Approx(0.34));
  // q=0.1: rank 1, in the first bucket [0, 0.1] holding 2: 0.1 * 1 / 2 = 0.05
  CHECK(*histogram_quantile(0.1, d) == Approx(0.05));
  // q=0.95: rank 9.5 > 7: in the +Inf bucket, so the highest finite bound.
  CHECK(*histogram_quantile(0.95, d) == 0.5);
  CHECK_FALSE(histogram_quantile(0.5, HistogramSnapshot{}));
  CHECK_FALSE(histogram_mean(HistogramSnapshot{}));
}

TEST_CASE("histograms: a server restarted between scrapes gives the last scrape alone") {
  const HistogramSnapshot last = histogram(kFirst, "t");
  const HistogramSnapshot d = histogram_delta(last, histogram(kLast, "t"));
  CHECK(d.count == 2);
  CHECK_FALSE(find_histogram(parse_prometheus_text("other 1\n", "test"), "t"));
  CHECK_THROWS_WITH(histogram("t_bucket{le=\"soon\"} 1\nt_count 1\n", "t"),
                    Catch::Contains("le=\"soon\" is not a bound"));
}

TEST_CASE("dialects: detected from the prefixes and mapped to one set of fields") {
  const std::string vllm_new =
      "vllm:num_requests_running{model_name=\"m\"} 2\n"
      "vllm:num_requests_waiting{model_name=\"m\"} 5\n"
      "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.25\n"
      "vllm:num_preemptions_total{model_name=\"m\"} 1\n"
      "vllm:prefix_cache_queries_total{model_name=\"m\"} 100\n"
      "vllm:prefix_cache_hits_total{model_name=\"m\"} 40\n"
      "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} 1\n"
      "vllm:time_to_first_token_seconds_count 1\n"
      "vllm:time_to_first_token_seconds_sum 0.1\n"
      "python_gc_objects_collected_total 3\n";
  const auto samples = parse_prometheus_text(vllm_new, "test");
  const MetricsDialect* d = detect_metrics_dialect(samples);
  REQUIRE(d != nullptr);
  CHECK(d->name == "vllm");
  const ServerReading r = read_server_metrics(samples, *d);
  CHECK(r.running == 2);
  CHECK(r.waiting == 5);
  CHECK(r.kv_usage == 0.25);
  CHECK(r.preemptions == 1);
  CHECK(r.prefix_queries == 100);
  CHECK(r.prefix_hits == 40);
  CHECK(r.ttft->count == 1);
  CHECK_FALSE(r.itl);

  const auto old = parse_prometheus_text(
      "vllm:gpu_cache_usage_perc 0.5\nvllm:gpu_prefix_cache_queries_total 10\n"
      "vllm:time_per_output_token_seconds_bucket{le=\"+Inf\"} 4\n"
      "vllm:time_per_output_token_seconds_count 4\n",
      "test");
  const ServerReading o = read_server_metrics(old, *find_metrics_dialect("vllm"));
  CHECK(o.kv_usage == 0.5);
  CHECK(o.prefix_queries == 10);
  CHECK(o.itl->count == 4);
  CHECK_FALSE(o.running);

  const auto sglang = parse_prometheus_text(
      "sglang:num_running_reqs 3\nsglang:num_queue_reqs 1\nsglang:token_usage 0.75\n"
      "sglang:cache_hit_rate 0.5\n",
      "test");
  const ServerReading s = read_server_metrics(sglang, *detect_metrics_dialect(sglang));
  CHECK(detect_metrics_dialect(sglang)->name == "sglang");
  CHECK(s.running == 3);
  CHECK(s.waiting == 1);
  CHECK(s.kv_usage == 0.75);
  CHECK(s.prefix_hit_rate == 0.5);
  CHECK_FALSE(s.preemptions);

  const auto llama = parse_prometheus_text(
      "llamacpp:requests_processing 1\nllamacpp:requests_deferred 2\n"
      "llamacpp:kv_cache_usage_ratio 0.1\n",
      "test");
  const ServerReading l = read_server_metrics(llama, *detect_metrics_dialect(llama));
  CHECK(detect_metrics_dialect(llama)->name == "llamacpp");
  CHECK(l.running == 1);
  CHECK(l.waiting == 2);
  CHECK(l.kv_usage == Approx(0.1));

  const auto ours = parse_prometheus_text("infergate:num_requests_running 1\n", "test");
  CHECK(detect_metrics_dialect(ours)->name == "infergate");
  CHECK(detect_metrics_dialect(parse_prometheus_text("go_goroutines 1\n", "test")) == nullptr);
  CHECK(find_metrics_dialect("tgi") == nullptr);
}

}  // namespace
}  // namespace infergate
