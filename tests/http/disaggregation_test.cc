// Prefill/decode disaggregation end to end: `infergate router --prefill-replicas P --replicas D`
// in front of real `serve --role prefill|decode` processes moving KV over UCX on this machine
// (docs/disaggregation.md). Answers must be those of one colocated server, token for token.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/http/raw_http.h"
#include "tests/http/server_process.h"
#include "tests/http/stream_client.h"

namespace infergate::test {
namespace {

using nlohmann::json;

std::unique_ptr<ServerProcess> start(const std::vector<std::string>& head,
                                     const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {INFERGATE_BINARY};
  argv.insert(argv.end(), head.begin(), head.end());
  argv.insert(argv.end(), {"--port", "0", "--model", "tiny", "--threads", "1"});
  argv.insert(argv.end(), flags.begin(), flags.end());
  return std::make_unique<ServerProcess>(argv);
}

json get_json(const std::string& url, const std::string& path) {
  return json::parse(body_of(http_request(url, "GET", path, "", 10)), nullptr, false);
}

// Waits (up to 60 s) until the router has `prefill` and `decode` healthy workers.
json wait_workers(const std::string& url, int prefill, int decode) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  json h;
  while (std::chrono::steady_clock::now() < deadline) {
    h = get_json(url, "/health");
    if (h.is_object() && h.value("healthy_prefill_replicas", 0) == prefill &&
        h.value("healthy_replicas", 0) == decode) {
      return h;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the router never had " << prefill << " prefill and " << decode
                               << " decode workers healthy: " << h.dump());
  return h;
}

// The value of the metric line starting with `line_start` (-1 when absent).
double metric(const std::string& url, const std::string& line_start) {
  const std::string text = body_of(http_request(url, "GET", "/metrics", "", 10));
  const size_t at = text.find("\n" + line_start + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + line_start.size() + 2));
}

// Polls `line_start` at `url` until it reads `value` (up to timeout_s); returns the last read.
double await_metric(const std::string& url, const std::string& line_start, double value,
                    double timeout_s = 20) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(int64_t(timeout_s * 1000));
  double got = metric(url, line_start);
  while (got != value && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    got = metric(url, line_start);
  }
  return got;
}

json token_prompt(int length, int seed) {
  json p = json::array();
  for (int i = 0; i < length; ++i) p.push_back((seed * 7919 + i * 131) % 31000 + 3);
  return p;
}

json greedy(const json& prompt, int max_tokens, bool stream = false) {
  json body = {
      {"prompt", prompt}, {"max_tokens", max_tokens}, {"temperature", 0}, {"ignore_eos", true}};
  if (stream) {
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
  }
  return body;
}

json complete(const std::string& url, const json& body) {
  const std::string response = http_request(url, "POST", "/v1/completions", body.dump(), 60);
  INFO(response.substr(0, 600));
  REQUIRE(status_of(response) == 200);
  return json::parse(body_of(response));
}

std::vector<int32_t> ids_of(const json& answer) {
  return answer["choices"][0]["token_ids"].get<std::vector<int32_t>>();
}

const char* kTiny = "infergate:num_requests_running{model_name=\"tiny\"}";
const char* kExportsHeld = "infergate:kv_transfer_exports_held{model_name=\"tiny\"}";
const char* kKvUsage = "infergate:kv_cache_usage_perc{model_name=\"tiny\"}";

}  // namespace

TEST_CASE(
    "disaggregated answers equal a colocated server's for every KV dtype, block size 16 and 7, "
    "chunked prefill on and off, with and without a cached prefix on the decode side") {
  const std::string kv = GENERATE("f32", "f16", "bf16");
  const int block = GENERATE(16, 7);
  const bool chunked = GENERATE(true, false);
  INFO(kv << ", block size " << block << ", chunked " << chunked);
  std::vector<std::string> flags = {"--kv-dtype", kv, "--block-size", std::to_string(block)};
  if (!chunked) flags.push_back("--no-chunked-prefill");
  auto colocated = start({"serve"}, flags);
  std::vector<std::string> router_flags = {"--prefill-replicas",  "1",  "--replicas", "1",
                                           "--health-interval-s", "0.1"};
  router_flags.insert(router_flags.end(), flags.begin(), flags.end());
  auto router = start({"router"}, router_flags);
  wait_workers(router->url(), 1, 1);

  for (int seed = 0; seed < 4; ++seed) {
    const int length = 23 + 13 * seed;
    const json first = greedy(token_prompt(length, seed), 6);
    const json expected = complete(colocated->url(), first);
    const json cold = complete(router->url(), first);
    CHECK(ids_of(cold) == ids_of(expected));
    const json& read = cold["kv_transfer"];
    INFO(read.dump());
    CHECK(read["fallback"].is_null());
    CHECK(read["prefill_fallback"].is_null());
    CHECK(read["prefill_attempts"] == 1);
    CHECK(read["prefill_s"].get<double>() > 0);
    // On the machine's one monotonic clock: the read follows the prefill phase.
    CHECK(read["prefill_end_ns"].get<int64_t>() > read["prefill_begin_ns"].get<int64_t>());
    CHECK(read["read_begin_ns"].get<int64_t>() >= read["prefill_end_ns"].get<int64_t>());
    CHECK(read["read_end_ns"].get<int64_t>() >= read["read_begin_ns"].get<int64_t>());
    CHECK(read["cached_blocks"] == 0);
    CHECK(read["blocks_read"] == length / block);
    CHECK(read["imported_blocks"] == length / block);

    // The same prompt grown by 20 tokens: the decode worker holds the first part already and
    // reads only the blocks after it.
    json grown = token_prompt(length, seed);
    for (int i = 0; i < 20; ++i) grown.push_back(100 + i);
    const json warm = complete(router->url(), greedy(grown, 6));
    CHECK(ids_of(warm) == ids_of(complete(colocated->url(), greedy(grown, 6))));
    CHECK(warm["kv_transfer"]["cached_blocks"] == length / block);
    CHECK(warm["kv_transfer"]["blocks_read"] == (length + 20) / block - length / block);
    CHECK(warm["kv_transfer"]["fallback"].is_null());
  }
  // Streamed through the router: the same tokens, the read's record on the last chunk.
  const std::vector<std::string> bodies = {greedy(token_prompt(50, 9), 8, true).dump()};
  const auto streamed = stream_all(router->url(), "/v1/completions", bodies, 1, 60);
  REQUIRE(streamed[0].error.empty());
  CHECK(streamed[0].ids == ids_of(complete(colocated->url(), greedy(token_prompt(50, 9), 8))));
  CHECK(router->terminate() == 0);
}

TEST_CASE("disaggregated: 500 concurrent streams across 1P:2D complete and free every KV block") {
  auto colocated = start({"serve"}, {});
  auto router = start({"router"}, {"--prefill-replicas", "1", "--replicas", "2", "--policy",
                                   "least-outstanding", "--health-interval-s", "0.1"});
  const json health = wait_workers(router->url(), 1, 2);
  std::mt19937_64 rng(3);
  std::vector<std::string> bodies;
  for (int i = 0; i < 500; ++i) {
    const int length = std::uniform_int_distribution<int>(16, 80)(rng);
    const int out = std::uniform_int_distribution<int>(2, 12)(rng);
    bodies.push_back(greedy(token_prompt(length, i), out, true).dump());
  }
  const auto reference = stream_all(colocated->url(), "/v1/completions", bodies, 500, 600);
  const auto answers = stream_all(router->url(), "/v1/completions", bodies, 500, 600);
  REQUIRE(answers.size() == reference.size());
  for (size_t i = 0; i < answers.size(); ++i) {
    INFO("request " << i << ": " << answers[i].error);
    REQUIRE(answers[i].error.empty());
    CHECK(answers[i].done);
    CHECK(answers[i].ids == reference[i].ids);
  }
  CHECK(metric(router->url(), "infergate_router:prefills_total{outcome=\"exported\"}") == 500);
  // Every export released by its reader, every request gone, every block back in the pool.
  const std::string prefill = health["prefill_replicas"][0]["url"];
  CHECK(await_metric(prefill, kExportsHeld, 0) == 0);
  CHECK(await_metric(prefill, kKvUsage, 0) == 0);
  double reads = 0;
  for (const json& d : health["replicas"]) {
    CHECK(await_metric(d["url"], kTiny, 0) == 0);
    CHECK(await_metric(d["url"], kKvUsage, 0) == 0);
    reads +=
        metric(d["url"], "infergate:kv_transfer_reads_total{model_name=\"tiny\",outcome=\"ok\"}");
  }
  CHECK(reads == 500);
  CHECK(router->terminate() == 0);
}

TEST_CASE("disaggregated: a client gone mid-stream frees its blocks on both workers") {
  auto router = start({"router"},
                      {"--prefill-replicas", "1", "--replicas", "1", "--health-interval-s", "0.1"});
  const json health = wait_workers(router->url(), 1, 1);
  {
    RawConnection client(router->url());
    const std::string body = greedy(token_prompt(40, 1), 900, true).dump();  // of 1024
    client.send(
        "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // decoding by now
  }
  const std::string decode = health["replicas"][0]["url"];
  CHECK(await_metric(decode, kTiny, 0) == 0);
  CHECK(await_metric(decode, kKvUsage, 0) == 0);
  CHECK(await_metric(health["prefill_replicas"][0]["url"], kExportsHeld, 0) == 0);
  CHECK(router->terminate() == 0);
}

TEST_CASE("disaggregated: with the prefill worker killed, decode workers compute prompts") {
  auto colocated = start({"serve"}, {});
  auto router = start({"router"}, {"--prefill-replicas", "1", "--replicas", "1",
                                   "--health-interval-s", "0.1", "--restart-delay-s", "30"});
  const json health = wait_workers(router->url(), 1, 1);
  ::kill(health["prefill_replicas"][0]["pid"].get<int>(), SIGKILL);
  for (int seed = 0; seed < 3; ++seed) {  // before and after the health check notices
    const json body = greedy(token_prompt(40, seed), 5);
    const json answer = complete(router->url(), body);
    CHECK(ids_of(answer) == ids_of(complete(colocated->url(), body)));
    // The decode worker got no source: the record is the router's alone, saying why.
    INFO(answer["kv_transfer"].dump());
    CHECK(answer["kv_transfer"]["prefill_fallback"].get<std::string>().find("prefill worker") !=
          std::string::npos);
    CHECK_FALSE(answer["kv_transfer"].contains("blocks_read"));
  }
  CHECK(metric(router->url(), "infergate_router:prefills_total{outcome=\"fallback\"}") == 3);
  CHECK(router->terminate() == 0);
}

TEST_CASE("disaggregated: a killed decode worker's streams go on at another, token for token") {
  auto colocated = start({"serve"}, {});
  auto router =
      start({"router"}, {"--prefill-replicas", "1", "--replicas", "2", "--health-interval-s", "0.1",
                         "--restart-delay-s", "30", "--policy", "round-robin"});
  const json health = wait_workers(router->url(), 1, 2);
  std::vector<std::string> bodies;
  for (int i = 0; i < 40; ++i) bodies.push_back(greedy(token_prompt(30 + i, i), 24, true).dump());
  const auto reference = stream_all(colocated->url(), "/v1/completions", bodies, 40, 300);
  const int victim = health["replicas"][0]["pid"];
  int victim_in_flight = 0;  // at the kill: with none, nothing had to migrate
  const auto answers =
      stream_all(router->url(), "/v1/completions", bodies, 40, 300, [&](size_t, int64_t n) {
        if (n != 200) return;
        victim_in_flight = get_json(router->url(), "/health")["replicas"][0]["outstanding"];
        ::kill(victim, SIGKILL);
      });
  for (size_t i = 0; i < answers.size(); ++i) {
    INFO("request " << i << ": " << answers[i].error);
    REQUIRE(answers[i].error.empty());
    CHECK(answers[i].ids == reference[i].ids);
  }
  if (victim_in_flight > 0) CHECK(metric(router->url(), "infergate_router:migrations_total") >= 1);
  CHECK(router->terminate() == 0);
}

TEST_CASE("disaggregated: a KV read past its timeout falls back and the export expires") {
  auto colocated = start({"serve"}, {});
  // 0.05 MB/s: a 221 kB block takes seconds; the read gives up after 0.3 s.
  auto router = start({"router"}, {"--prefill-replicas", "1", "--replicas", "1",
                                   "--health-interval-s", "0.1", "--kv-read-rate-mb-s", "0.05",
                                   "--kv-read-timeout-s", "0.3", "--kv-export-ttl-s", "1"});
  const json health = wait_workers(router->url(), 1, 1);
  const json body = greedy(token_prompt(40, 4), 5);
  const auto start_time = std::chrono::steady_clock::now();
  const json answer = complete(router->url(), body);
  CHECK(std::chrono::steady_clock::now() - start_time < std::chrono::seconds(5));
  CHECK(ids_of(answer) == ids_of(complete(colocated->url(), body)));
  const json& read = answer["kv_transfer"];
  INFO(read.dump());
  CHECK(read["fallback"] == "timed out reading the KV blocks");
  CHECK(read["imported_blocks"] == 0);
  const std::string decode = health["replicas"][0]["url"];
  CHECK(metric(decode,
               "infergate:kv_transfer_reads_total{model_name=\"tiny\",outcome=\"fallback\"}") == 1);
  const std::string prefill = health["prefill_replicas"][0]["url"];
  CHECK(await_metric(prefill, kExportsHeld, 0, 5) == 0);
  CHECK(metric(prefill,
               "infergate:kv_transfer_exports_total{model_name=\"tiny\",outcome=\"expired\"}") ==
        1);
  CHECK(router->terminate() == 0);
}

TEST_CASE("serve refuses kv_transfer its role does not take, and malformed sources, by field") {
  auto colocated = start({"serve"}, {});
  auto decode = start({"serve"}, {"--role", "decode"});
  const auto refused = [](const std::string& url, const json& kv_transfer) {
    json body = greedy(token_prompt(20, 1), 2);
    body["kv_transfer"] = kv_transfer;
    const std::string response = http_request(url, "POST", "/v1/completions", body.dump(), 30);
    CHECK(status_of(response) == 400);
    return json::parse(body_of(response))["error"]["message"].get<std::string>();
  };
  CHECK(refused(colocated->url(), {{"export", true}}) ==
        "'kv_transfer.export' needs a server started with --role prefill (this one's is "
        "colocated)");
  CHECK(refused(decode->url(), {{"export", true}}).find("--role prefill") != std::string::npos);
  CHECK(refused(decode->url(), {{"fetch", 1}}).find("must be {\"export\": true}") !=
        std::string::npos);
  CHECK(refused(decode->url(), {{"source", {{"worker", "zz"}}}}) ==
        "kv_transfer.source.worker has a character that is not 0-9a-f");
  CHECK(refused(decode->url(), {{"source",
                                 {{"worker", "00"},
                                  {"rkey", "00"},
                                  {"address", 1},
                                  {"export_id", 1},
                                  {"block_nbytes", 0},
                                  {"num_blocks", 1}}}}) ==
        "kv_transfer.source.block_nbytes must be an integer in [1, 1073741824]");
}

TEST_CASE("serve and router refuse bad disaggregation flags with exit 2 naming the flag") {
  const auto fails = [](const std::vector<std::string>& args, const std::string& message) {
    std::vector<std::string> argv = {INFERGATE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandResult r = run_command(argv, 60);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(message) != std::string::npos);
  };
  fails({"serve", "--role", "both"}, "--role both is not one of colocated, prefill, decode");
  fails({"serve", "--kv-read-timeout-s", "90"}, "--kv-read-timeout-s 90 must be below");
  fails({"serve", "--kv-max-exported-mb", "0"}, "--kv-max-exported-mb 0 is out of range");
  fails({"router", "--prefill-replicas", "1", "--backend", "http://127.0.0.1:1"},
        "--prefill-replicas needs --replicas");
  fails({"router", "--replicas", "1", "--role", "decode"}, "--role is the router's to set");
  fails({"router", "--prefill-backend", "http://127.0.0.1:1"}, "--prefill-backend needs --backend");
}

}  // namespace infergate::test
