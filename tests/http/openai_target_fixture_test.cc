// The openai target's handling of stream shapes and set-up answers that infergate serve does not
// produce, against the infergate_http_echo fixture (a real HTTP server with no model): several
// tokens per chunk, text-only streams as vLLM sends by default, chat, model discovery, and
// stop() in the middle of streams. What the fixture answers is fixed by its flags, so every
// count below is exact.
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "bench/http/openai_endpoint.h"
#include "bench/targets/openai_target.h"
#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

TargetSpec openai_spec(const std::string& url) {
  TargetSpec spec;
  spec.type = "openai";
  spec.url = url;
  return spec;
}

TEST_CASE("model and vocabulary size come from GET /v1/models when the workload leaves them out") {
  auto echo = start_echo({"--model", "m-1", "--vocab-size", "4096"});
  const OpenAiEndpoint e = resolve_openai_endpoint(openai_spec(echo->url()));
  CHECK(e.model == "m-1");
  CHECK(e.vocab_size == 4096);

  TargetSpec other = openai_spec(echo->url());
  other.model_name = "m-2";
  CHECK_THROWS_WITH(
      resolve_openai_endpoint(other),
      Catch::Contains("does not list the model \"m-2\"") && Catch::Contains("\"m-1\""));
  CHECK(echo->terminate() == 0);

  auto silent = start_echo({"--vocab-size", "0"});
  CHECK_THROWS_WITH(resolve_openai_endpoint(openai_spec(silent->url())),
                    Catch::Contains("target.vocab_size is not set") &&
                        Catch::Contains("gives no vocab_size for \"echo\""));
  CHECK(silent->terminate() == 0);

  const std::string nowhere = "http://127.0.0.1:" + std::to_string(unused_local_port());
  CHECK_THROWS_WITH(
      resolve_openai_endpoint(openai_spec(nowhere)),
      Catch::Contains("GET " + nowhere) && Catch::Contains("set both to run without asking"));
}

// Splits a record's token times into runs of equal times.
std::vector<int> run_lengths(const json& times) {
  std::vector<int> runs;
  for (size_t i = 0; i < times.size(); ++i) {
    if (i == 0 || times[i] != times[i - 1]) runs.push_back(0);
    ++runs.back();
  }
  return runs;
}

TEST_CASE("chunks of several tokens: each token counted, stamped with its chunk's arrival") {
  auto echo = start_echo({"--tokens-per-chunk", "3", "--token-delay-us", "1000"});
  const Workload w =
      http_workload(echo->url(), {{"dataset", {{"output_tokens", 10}}}, {"load", {{"rate", 50}}}});
  const json results = run_and_read_back(w);
  CHECK(results["summary"]["num_completed"] == 12);
  for (const json& r : measured_records(results)) {
    CHECK(r["output_tokens"] == 10);
    CHECK(run_lengths(r["token_times_ms"]) == std::vector<int>{3, 3, 3, 1});
  }
  // ITL is per token: each 3-token chunk adds two gaps of 0 (docs/metrics.md).
  CHECK(results["summary"]["itl_ms"]["count"] == 12 * 9);
  CHECK(results["summary"]["itl_ms"]["p50"] == 0);
  const json& client = results["points"][0]["repetitions"][0]["engine"]["http_client"];
  CHECK(client["usage"]["mismatches"] == 0);
  CHECK(echo->terminate() == 0);
}

TEST_CASE("text-only streams: usage gives the count, spread over the chunks") {
  auto echo = start_echo({"--no-token-ids", "--tokens-per-chunk", "2", "--token-delay-us", "500"});
  const Workload w = http_workload(echo->url(), {{"dataset", {{"output_tokens", 7}}}});
  const json results = run_and_read_back(w);
  CHECK(results["summary"]["num_completed"] == 12);
  for (const json& r : measured_records(results)) {
    CHECK(r["output_tokens"] == 7);
    // 4 chunks with text share 7 tokens as 1, 2, 2, 2 (floor((j+1)7/4) - floor(j7/4))
    CHECK(run_lengths(r["token_times_ms"]) == std::vector<int>{1, 2, 2, 2});
  }
  CHECK(echo->terminate() == 0);
}

TEST_CASE("chat requests: one user message, counts from usage") {
  auto echo = start_echo();
  const Workload w = http_workload(echo->url(), {{"target", {{"api", "chat"}}}});
  const json results = run_and_read_back(w);
  CHECK(results["summary"]["num_completed"] == 12);
  const std::vector<BenchRequest> sent = sent_requests(w, 32000);
  for (const json& r : measured_records(results)) {
    const BenchRequest& req = sent[r["index"].get<size_t>()];
    CHECK(r["output_tokens"] == req.max_tokens);
    // The fixture counts the message's bytes: one per id, none for BOS (ChatPromptText).
    CHECK(r["input_tokens"] == int(req.prompt.size()) - 1);
  }
  CHECK(echo->terminate() == 0);
}

TEST_CASE("stop() aborts the streams in flight: each ends once, as aborted") {
  auto echo = start_echo({"--token-delay-us", "100000"});  // 10 tokens per second
  TargetSpec spec = openai_spec(echo->url());
  OpenAiTarget target(resolve_openai_endpoint(spec));
  std::mutex mutex;
  std::vector<TargetEvent> finished;
  target.start([&](TargetEvent&& e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (e.finished) finished.push_back(std::move(e));
  });
  for (uint64_t i = 0; i < 5; ++i) target.submit(i, {1, 2, 3}, 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto before = std::chrono::steady_clock::now();
  target.stop();
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::seconds(2));
  REQUIRE(finished.size() == 5);
  for (const TargetEvent& e : finished) CHECK(e.status == RequestStatus::kAborted);
  CHECK(target.stats().http_client->aborted == 5);
  CHECK(echo->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
