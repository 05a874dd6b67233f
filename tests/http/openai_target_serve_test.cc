// The openai target against `infergate serve` processes on loopback: a whole workload, a
// thousand concurrent streams, and every kind of failure recorded as an error with its reason.
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bench/http/openai_endpoint.h"
#include "bench/targets/openai_target.h"
#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

constexpr int32_t kTinyVocab = 32000;

// Every ok record's times are in order and its tokens are the ones the dataset asked for.
void check_records_against_dataset(const Workload& w, const json& results) {
  const std::vector<BenchRequest> sent = sent_requests(w, kTinyVocab);
  for (const json& r : results["points"][0]["repetitions"][0]["requests"]) {
    const BenchRequest& req = sent[r["index"].get<size_t>() % sent.size()];
    INFO(r.dump());
    REQUIRE(r["status"] == "ok");
    CHECK(r["output_tokens"] == req.max_tokens);
    CHECK(r["input_tokens"] == int(req.prompt.size()));  // usage.prompt_tokens
    CHECK(r["token_times_ms"].size() == size_t(req.max_tokens));
    const double scheduled = r["scheduled_ms"], sent_ms = r["sent_ms"];
    const double first = r["first_token_ms"], finished = r["finished_ms"];
    CHECK(scheduled <= sent_ms);
    CHECK(sent_ms < first);
    CHECK(first <= finished);
    double previous = first;
    for (const json& t : r["token_times_ms"]) {
      CHECK(t.get<double>() >= previous);
      previous = t.get<double>();
    }
    CHECK(previous <= finished);
  }
}

TEST_CASE("a workload over HTTP against infergate serve: every request ok, counted and timed") {
  auto server = start_serve();
  // No model and no vocab_size: both come from the server's GET /v1/models.
  const Workload w = http_workload(server->url(), json::object());
  const json results = run_and_read_back(w);

  REQUIRE(results["workload"]["target"]["type"] == "openai");
  REQUIRE(results["workload"]["target"]["url"] == server->url());
  const json& s = results["summary"];
  CHECK(s["num_requests"] == 12);
  CHECK(s["num_completed"] == 12);
  CHECK(s["num_errors"] == 0);
  check_records_against_dataset(w, results);
  // Plausible for a 15M-parameter model on a shared CPU: positive, ordered, far below a second
  // per token.
  CHECK(s["ttft_ms"]["p50"].get<double>() > 0);
  CHECK(s["ttft_ms"]["p50"].get<double>() <= s["e2e_ms"]["p50"].get<double>());
  CHECK(s["tpot_ms"]["p50"].get<double>() > 0);
  CHECK(s["tpot_ms"]["p50"].get<double>() < 1000);
  CHECK(s["itl_ms"]["count"].get<double>() > 0);

  const json& client = results["points"][0]["repetitions"][0]["engine"]["http_client"];
  INFO(client.dump());
  CHECK(client["requests"] == 14);
  CHECK(client["ok"] == 14);
  CHECK(client["errors"] == 0);
  CHECK(client["usage"]["mismatches"] == 0);
  CHECK(client["usage"]["missing"] == 0);
  CHECK(client["connections"]["opened"].get<int>() >= 1);
  CHECK(client["connections"]["opened"].get<int>() + client["connections"]["reused"].get<int>() ==
        14 + client["connections"]["stale_retries"].get<int>());
  CHECK(server->terminate() == 0);
}

TEST_CASE("chat over HTTP against infergate serve: one byte per id, the template on top") {
  auto server = start_serve();
  const Workload w = http_workload(server->url(), {{"target", {{"api", "chat"}}}});
  const json results = run_and_read_back(w);
  CHECK(results["summary"]["num_completed"] == 12);
  const std::vector<BenchRequest> sent = sent_requests(w, kTinyVocab);
  for (const json& r : measured_records(results)) {
    const BenchRequest& req = sent[r["index"].get<size_t>()];
    CHECK(r["output_tokens"] == req.max_tokens);
    // usage.prompt_tokens: the byte tokenizer reads one token per id (BOS aside) and the chat
    // template adds its own.
    CHECK(r["input_tokens"].get<int>() > int(req.prompt.size()) - 1);
  }
  CHECK(server->terminate() == 0);
}

TEST_CASE("a thousand concurrent streams: none lost, every token counted") {
  auto server = start_serve({"--max-num-seqs", "1024", "--max-num-batched-tokens", "8192"});
  const Workload w =
      http_workload(server->url(), {{"target", {{"model", "tiny"}, {"vocab_size", kTinyVocab}}},
                                    {"dataset", {{"input_tokens", 6}, {"output_tokens", 3}}},
                                    {"load",
                                     {{"mode", "closed"},
                                      {"concurrency", 1000},
                                      {"num_requests", 1000},
                                      {"warmup_requests", 0},
                                      {"rate", nullptr},
                                      {"arrival", nullptr}}}});
  const json results = run_and_read_back(w);
  const json& s = results["summary"];
  CHECK(s["num_completed"] == 1000);
  CHECK(s["output_tokens"]["count"] == 1000);
  CHECK(s["output_tokens"]["min"] == 3);
  CHECK(s["output_tokens"]["max"] == 3);
  check_records_against_dataset(w, results);
  const json& client = results["points"][0]["repetitions"][0]["engine"]["http_client"];
  INFO(client.dump());
  CHECK(client["ok"] == 1000);
  CHECK(client["errors"] == 0);
  // Closed loop with 1000 users: all 1000 are handed to the client at once.
  CHECK(client["peak_in_flight"].get<int>() >= 900);
  CHECK(server->terminate() == 0);
}

std::vector<json> run_expecting_errors(const std::string& url, const json& target_patch,
                                       const json& dataset_patch = json::object()) {
  const Workload w = http_workload(url, {{"target", target_patch},
                                         {"dataset", dataset_patch},
                                         {"load", {{"num_requests", 3}, {"warmup_requests", 0}}}});
  const json results = run_and_read_back(w);
  CHECK(results["summary"]["num_errors"] == 3);
  CHECK(results["summary"]["num_completed"] == 0);
  return measured_records(results);
}

TEST_CASE("failures are error records with their reason: 404, refused, timeout") {
  auto server = start_serve();
  SECTION("a model the server does not serve: HTTP 404 with the server's message") {
    for (const json& r : run_expecting_errors(
             server->url(), {{"model", "no-such-model"}, {"vocab_size", kTinyVocab}})) {
      CHECK(r["status"] == "error");
      CHECK_THAT(r["error"].get<std::string>(),
                 Catch::Contains("HTTP 404") && Catch::Contains("no-such-model"));
    }
  }
  SECTION("a server that is not there: connection refused") {
    const std::string nowhere = "http://127.0.0.1:" + std::to_string(unused_local_port());
    for (const json& r :
         run_expecting_errors(nowhere, {{"model", "tiny"}, {"vocab_size", kTinyVocab}})) {
      CHECK_THAT(r["error"].get<std::string>(),
                 Catch::Contains("cannot connect to " + nowhere) && Catch::Contains("refused"));
    }
  }
  SECTION("a generation longer than target.timeout_s") {
    for (const json& r : run_expecting_errors(
             server->url(), {{"model", "tiny"}, {"vocab_size", kTinyVocab}, {"timeout_s", 0.05}},
             {{"output_tokens", 900}})) {
      CHECK_THAT(r["error"].get<std::string>(),
                 Catch::StartsWith("timeout: no complete response within target.timeout_s"));
      const double e2e = r["finished_ms"].get<double>() - r["sent_ms"].get<double>();
      CHECK(e2e >= 50);
      CHECK(e2e < 5000);
    }
  }
  CHECK(server->terminate() == 0);
}

// Collects a target's final events.
struct EventLog {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<TargetEvent> finished;
  TargetEventSink sink() {
    return [this](TargetEvent&& e) {
      std::lock_guard<std::mutex> lock(mutex);
      if (e.finished) finished.push_back(std::move(e));
      cv.notify_all();
    };
  }
  bool wait_for(size_t n, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, limit, [&] { return finished.size() >= n; });
  }
};

TEST_CASE("a server killed mid-stream: the cut streams are errors, not losses") {
  auto server = start_serve();
  TargetSpec spec;
  spec.type = "openai";
  spec.url = server->url();
  spec.model_name = "tiny";
  spec.vocab_size = kTinyVocab;
  OpenAiTarget target(resolve_openai_endpoint(spec));
  EventLog log;
  target.start(log.sink());
  const std::vector<int32_t> prompt = {1, 500, 600, 700};
  for (uint64_t i = 0; i < 4; ++i) target.submit(i, prompt, 1000);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (target.stats().http_client->connections_opened < 4 &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // streams under way
  server->kill_now();
  REQUIRE(log.wait_for(4, std::chrono::seconds(30)));
  target.stop();
  for (const TargetEvent& e : log.finished) {
    INFO(e.error);
    CHECK(e.status == RequestStatus::kError);
    CHECK_THAT(e.error, Catch::StartsWith("connection lost mid-response"));
  }
  CHECK(target.stats().http_client->errors() == 4);
}

}  // namespace
}  // namespace infergate::test
