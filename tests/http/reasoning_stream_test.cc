// A reasoning model's stream from infergate_http_echo's reasoning mode (--reasoning-tokens):
// thinking as chat's delta.reasoning_content, or inside <think>...</think> in the text that the
// workload's reasoning_span names. Time to first output token (the answer's) is recorded apart
// from time to first token, and the thinking's tokens apart from the answer's
// (docs/metrics.md, "Reasoning models").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

constexpr int kThinking = 4;
constexpr double kTokenDelayMs = 5;

json run_reasoning(const std::string& url, const json& target) {
  json patch = {{"target", target},
                {"dataset", {{"output_tokens", {{"min", 10}, {"max", 10}}}}},
                {"load", {{"rate", 50}, {"num_requests", 8}}}};
  return run_and_read_back(http_workload(url, patch));
}

// Each measured request thought for kThinking tokens, and its answer began at least that many
// token delays after its first token.
void check_thinking(const json& results) {
  const json& s = results["points"][0]["repetitions"][0]["summary"];
  INFO(s.dump());
  REQUIRE(s["ttfot_ms"].is_object());
  CHECK(s["reasoning_tokens"]["mean"] == kThinking);
  CHECK(s["ttfot_ms"]["count"] == 8);
  CHECK(s["ttfot_ms"]["p50"].get<double>() > s["ttft_ms"]["p50"].get<double>());
  for (const json& r : measured_records(results)) {
    INFO(r.dump());
    CHECK(r["reasoning_tokens"] == kThinking);
    const json& t = r["token_times_ms"];
    CHECK(t[kThinking].get<double>() - t[0].get<double>() >= kThinking * kTokenDelayMs * 0.95);
  }
}

TEST_CASE("a reasoning stream's thinking in reasoning_content is timed and counted apart") {
  auto echo = start_echo({"--reasoning-tokens", std::to_string(kThinking), "--token-delay-us",
                          std::to_string(int(kTokenDelayMs * 1000))});
  check_thinking(run_reasoning(echo->url(), {{"api", "chat"}}));
  CHECK(echo->terminate() == 0);
}

TEST_CASE("thinking inside the text's think tags is reasoning only when the workload names them") {
  auto echo = start_echo({"--reasoning-tokens", std::to_string(kThinking), "--reasoning-as",
                          "think", "--token-delay-us", std::to_string(int(kTokenDelayMs * 1000))});
  const json span = {{"open", "<think>"}, {"close", "</think>"}};
  const json named = run_reasoning(echo->url(), {{"reasoning_span", span}});
  check_thinking(named);
  CHECK(named["workload"]["target"]["reasoning_span"] == span);

  // Unnamed, the tags are the answer's text: no reasoning figures at all.
  const json unnamed = run_reasoning(echo->url(), json::object());
  const json& s = unnamed["points"][0]["repetitions"][0]["summary"];
  CHECK(s["ttfot_ms"].is_null());
  CHECK(s["reasoning_tokens"].is_null());
  CHECK_FALSE(measured_records(unnamed)[0].contains("reasoning_tokens"));
  CHECK(echo->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
