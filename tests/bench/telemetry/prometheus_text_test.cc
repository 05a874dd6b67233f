// The Prometheus text parser (bench/telemetry/prometheus_text.h): good expositions with labels,
// escapes, histograms and comments; malformed lines and oversized bodies refused by line.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "bench/telemetry/prometheus_text.h"

namespace infergate {
namespace {

TEST_CASE("Prometheus text: samples, labels with escapes, comments, special values") {
  const std::string text =
      "# HELP vllm:num_requests_running Requests in the running batch.\n"
      "# TYPE vllm:num_requests_running gauge\n"
      "vllm:num_requests_running{model_name=\"tiny\"} 3\n"
      "\n"
      "  # an indented comment\n"
      "plain_total 1.5e3 1712345678000\n"
      "odd{a=\"x\\\"y\\\\z\\nw\" , b = \"\",} -2\r\n"
      "h_bucket{le=\"+Inf\"} +Inf\n"
      "n NaN\n";
  const auto samples = parse_prometheus_text(text, "http://h/metrics");
  REQUIRE(samples.size() == 5);
  CHECK(samples[0].name == "vllm:num_requests_running");
  CHECK(*samples[0].label("model_name") == "tiny");
  CHECK(samples[0].value == 3);
  CHECK(samples[1].name == "plain_total");
  CHECK(samples[1].labels.empty());
  CHECK(samples[1].value == 1500);
  CHECK(*samples[2].label("a") == "x\"y\\z\nw");
  CHECK(*samples[2].label("b") == "");
  CHECK(samples[2].label("c") == nullptr);
  CHECK(samples[2].value == -2);
  CHECK(samples[2].key() == "odd{a=\"x\\\"y\\\\z\\nw\",b=\"\"}");
  CHECK(std::isinf(samples[3].value));
  CHECK(std::isnan(samples[4].value));
  const auto map = prometheus_value_map(samples);
  CHECK(map.at("plain_total") == 1500);
  CHECK(map.at("vllm:num_requests_running{model_name=\"tiny\"}") == 3);
}

TEST_CASE("Prometheus text: malformed lines are refused naming the source and line") {
  const std::pair<std::string, std::string> cases[] = {
      {"ok 1\nbad{a=\"x\" 2\n", "http://h/metrics:2: expected ',' or '}' after a label"},
      {"x{a=\"unterminated} 1\n", "http://h/metrics:1: unterminated label value"},
      {"x{a=\"\\q\"} 1\n", ":1: unknown escape \\q in a label value"},
      {"x{=\"v\"} 1\n", ":1: expected a label name"},
      {"x{a \"v\"} 1\n", ":1: expected '=' after the label name"},
      {"x\n", ":1: metric x has no value"},
      {"x one\n", ":1: metric x: \"one\" is not a number"},
      {"x 1 2 3\n", ":1: metric x: unexpected text after the value"},
      {"x 1 later\n", ":1: metric x: the timestamp is not a number"},
      {"9lives 1\n", ":1: expected a metric name"},
      {"x{a=v} 1\n", ":1: expected '\"' opening a label value"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    CHECK_THROWS_WITH(parse_prometheus_text(text, "http://h/metrics"), Catch::Contains(expected));
  }
}

TEST_CASE("Prometheus text: body, line, sample and label limits") {
  PrometheusLimits small;
  small.max_body_bytes = 10;
  CHECK_THROWS_WITH(parse_prometheus_text("a 1\nb 2\nc 3\n", "u", small),
                    "u: the body (12 bytes) exceeds the limit of 10 bytes");
  PrometheusLimits lines;
  lines.max_line_bytes = 8;
  CHECK_THROWS_WITH(parse_prometheus_text("a 1\nlong_name 2\n", "u", lines),
                    "u:2: the line exceeds the limit of 8 bytes");
  PrometheusLimits samples;
  samples.max_samples = 2;
  CHECK_THROWS_WITH(parse_prometheus_text("# c\na 1\nb 2\nc 3\n", "u", samples),
                    "u:4: more than 2 samples");
  PrometheusLimits labels;
  labels.max_labels = 1;
  CHECK_THROWS_WITH(parse_prometheus_text("a{x=\"1\",y=\"2\"} 1\n", "u", labels),
                    "u:1: more than 1 labels");
  CHECK(parse_prometheus_number("1e-3") == 1e-3);
  CHECK_FALSE(parse_prometheus_number("0x10"));
  CHECK_FALSE(parse_prometheus_number(""));
}

}  // namespace
}  // namespace infergate
