// Prefill/decode disaggregation end to end: `infergate router --prefill-replicas P --replicas D`
// in front of real `serve --role prefill|decode` processes moving KV over UCX on this machine
// (docs/disaggregation.md). Answers must be those of one colocated server, token for token.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
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

// A KV transfer secret in a file of its own, for workers started apart; removed at the end.
class SecretFile {
 public:
  explicit SecretFile(const std::string& secret) {
    char path[] = "/tmp/infergate-kv-secret-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    ::close(fd);
    path_ = path;
    std::ofstream(path_) << secret << "\n";
  }
  ~SecretFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A prefill worker's source for `prompt` (asked directly, as the router would).
json export_source(const std::string& prefill_url, const json& prompt) {
  json body = greedy(prompt, 1);
  body["kv_transfer"] = {{"export", true}};
  const json answer = complete(prefill_url, body);
  INFO(answer.dump().substr(0, 600));
  REQUIRE(answer["kv_transfer"].contains("source"));
  return answer["kv_transfer"]["source"];
}

// The decode worker's answer to `prompt` with `source`: the HTTP status and the body.
std::pair<int, json> with_source(const std::string& decode_url, const json& prompt, int max_tokens,
                                 const json& source) {
  json body = greedy(prompt, max_tokens);
  body["kv_transfer"] = {{"source", source}};
  const std::string response = http_request(decode_url, "POST", "/v1/completions", body.dump(), 60);
  return {status_of(response), json::parse(body_of(response), nullptr, false)};
}

std::string hex_bytes(std::mt19937_64& rng, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (size_t i = 0; i < 2 * n; ++i) hex += kDigits[rng() % 16];
  return hex;
}

// One of 1,000 bad `kv_transfer.source` values: the crashes of issue 43 (a 300-byte 0xff or
// version-0x0f worker address, a garbage remote key, a genuine worker and key at address 0 or
// outside the export, a key garbage after its first byte), random values of every field and
// type, and the genuine source with one field changed.
json bad_source(std::mt19937_64& rng, const json& genuine) {
  json s = genuine;
  const auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  switch (pick(12)) {
    case 0:
      s["worker"] = std::string(600, 'f');
      break;
    case 1:
      s["worker"] = "0f" + hex_bytes(rng, 1 + pick(400));
      break;
    case 2:
      s["rkey"] = hex_bytes(rng, 1 + pick(300));
      break;
    case 3:
      s["address"] = 0;
      break;
    case 4:
      s["address"] = genuine["address"].get<uint64_t>() - (1 << 20);
      s["num_blocks"] = 1000;
      if (pick(2) == 0) s["block_checksums"] = std::string(16000, '0');
      break;
    case 5:
      s["rkey"] = genuine["rkey"].get<std::string>().substr(0, 2) +
                  hex_bytes(rng, genuine["rkey"].get<std::string>().size() / 2 - 1);
      break;
    case 6: {  // a random field, a random value of a random type
      static const char* kFields[] = {
          "worker",       "rkey",          "address",         "export_id",
          "block_nbytes", "num_blocks",    "arena_address",   "arena_bytes",
          "block_tokens", "tokens_digest", "block_checksums", "signature"};
      const std::vector<json> values = {
          nullptr,       -1,   uint64_t(rng()),          rng() % 64,
          1.5,           "zz", hex_bytes(rng, pick(40)), json::array(),
          json::object()};
      const char* field = kFields[pick(12)];
      if (pick(8) == 0) {
        s.erase(field);
      } else {
        s[field] = values[size_t(pick(int(values.size())))];
      }
      break;
    }
    case 7:  // every number random
      for (const char* f : {"address", "export_id", "arena_address", "arena_bytes"}) s[f] = rng();
      s["num_blocks"] = pick(4);
      s["block_checksums"] = hex_bytes(rng, 8 * s["num_blocks"].get<size_t>());
      break;
    case 8:
      s["signature"] = hex_bytes(rng, 32);
      break;
    case 9:
      s["tokens_digest"] = hex_bytes(rng, 32);
      break;
    case 10:
      s["arena_address"] = 0;
      s["arena_bytes"] = UINT64_MAX;
      break;
    default: {  // one hex digit of the worker address changed
      std::string w = s["worker"];
      const size_t at = size_t(pick(int(w.size())));
      w[at] = w[at] == '0' ? '1' : '0';
      s["worker"] = w;
    }
  }
  return s;
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
  // The fields that make a source trustworthy are required and sized, by name.
  json source = {{"worker", "00"},
                 {"rkey", "00"},
                 {"address", 1},
                 {"export_id", 1},
                 {"block_nbytes", 64},
                 {"num_blocks", 1},
                 {"arena_address", 1},
                 {"arena_bytes", 4096},
                 {"block_tokens", 16},
                 {"tokens_digest", std::string(64, '0')},
                 {"block_checksums", "00"},
                 {"signature", std::string(64, '0')}};
  CHECK(refused(decode->url(), {{"source", source}}) ==
        "kv_transfer.source.block_checksums must be 16 hex digits");
  source["block_checksums"] = std::string(16, '0');
  source.erase("signature");
  CHECK(refused(decode->url(), {{"source", source}}) == "kv_transfer.source.signature is missing");
  source["signature"] = "00";
  CHECK(refused(decode->url(), {{"source", source}}) ==
        "kv_transfer.source.signature must be 64 hex digits");
  source["worker"] = std::string(2 * 4097, 'f');
  CHECK(refused(decode->url(), {{"source", source}}) ==
        "kv_transfer.source.worker must be an even number of hex digits, at most 8192");
}

TEST_CASE(
    "a decode worker survives 1,000 bad kv_transfer.source values and computes each prompt "
    "itself, and its prefill worker survives too") {
  SecretFile secret("the secret of this test's workers");
  auto prefill =
      start({"serve"}, {"--role", "prefill", "--kv-transfer-secret-file", secret.path()});
  auto decode = start({"serve"}, {"--role", "decode", "--kv-transfer-secret-file", secret.path()});
  const json prompt = token_prompt(40, 5), other = token_prompt(40, 6);
  const std::vector<int32_t> expected = ids_of(complete(decode->url(), greedy(prompt, 1)));
  const std::vector<int32_t> expected_other = ids_of(complete(decode->url(), greedy(other, 1)));
  const json genuine = export_source(prefill->url(), prompt);
  std::mt19937_64 rng(43);
  int computed = 0, refused = 0;
  for (int i = 0; i < 1000; ++i) {
    const json source = bad_source(rng, genuine);
    const bool same_prompt = i % 2 == 0;
    const auto [status, answer] =
        with_source(decode->url(), same_prompt ? prompt : other, 1, source);
    INFO("source " << i << ": " << source.dump().substr(0, 400) << " -> " << status << " "
                   << answer.dump().substr(0, 400));
    REQUIRE((status == 200 || status == 400));
    if (status == 400) {
      ++refused;
      CHECK(answer["error"]["message"].get<std::string>().starts_with("kv_transfer.source"));
      continue;
    }
    ++computed;
    REQUIRE(answer["kv_transfer"]["fallback"].is_string());
    CHECK(answer["kv_transfer"]["blocks_read"] == 0);
    CHECK(ids_of(answer) == (same_prompt ? expected : expected_other));
  }
  INFO(computed << " computed, " << refused << " refused by field");
  CHECK(computed > 300);
  CHECK(refused > 30);
  // Both workers live on; nothing was cached from a bad source; a genuine one still reads (a
  // prompt the decode worker has not computed, so nothing of it is cached there).
  CHECK(ids_of(complete(decode->url(), greedy(other, 1))) == expected_other);
  const json fresh = token_prompt(40, 7);
  const auto [status, answer] =
      with_source(decode->url(), fresh, 1, export_source(prefill->url(), fresh));
  REQUIRE(status == 200);
  CHECK(answer["kv_transfer"]["fallback"].is_null());
  CHECK(answer["kv_transfer"]["blocks_read"] == 2);
  CHECK(ids_of(answer) == ids_of(complete(prefill->url(), greedy(fresh, 1))));
  CHECK(decode->terminate() == 0);
  CHECK(prefill->terminate() == 0);
}

TEST_CASE(
    "a genuine source is read only for its own prompt under the shared secret, and a source "
    "for another prompt never poisons the prefix cache") {
  SecretFile secret("the secret shared by workers started apart");
  SecretFile another("another secret, of another router");
  auto colocated = start({"serve"}, {});
  auto prefill =
      start({"serve"}, {"--role", "prefill", "--kv-transfer-secret-file", secret.path()});
  auto decode = start({"serve"}, {"--role", "decode", "--kv-transfer-secret-file", secret.path()});
  auto no_secret = start({"serve"}, {"--role", "decode"});
  auto foreign =
      start({"serve"}, {"--role", "decode", "--kv-transfer-secret-file", another.path()});
  const json a = token_prompt(48, 1), b = token_prompt(48, 2);
  const std::vector<int32_t> expected_b = ids_of(complete(colocated->url(), greedy(b, 6)));

  // A's source with prompt B: refused before any read, B computed, nothing cached of A.
  const auto [status, poisoned] =
      with_source(decode->url(), b, 6, export_source(prefill->url(), a));
  REQUIRE(status == 200);
  CHECK(poisoned["kv_transfer"]["fallback"] == "the source's KV was computed for another prompt");
  CHECK(poisoned["kv_transfer"]["imported_blocks"] == 0);
  CHECK(ids_of(poisoned) == expected_b);
  CHECK(ids_of(complete(decode->url(), greedy(b, 6))) == expected_b);

  // Without the secret, or under another, no source is trusted.
  const auto [s1, unsigned_answer] =
      with_source(no_secret->url(), a, 6, export_source(prefill->url(), a));
  REQUIRE(s1 == 200);
  CHECK(unsigned_answer["kv_transfer"]["fallback"].get<std::string>().starts_with(
      "this decode worker has no KV transfer secret"));
  const auto [s2, foreign_answer] =
      with_source(foreign->url(), a, 6, export_source(prefill->url(), a));
  REQUIRE(s2 == 200);
  CHECK(foreign_answer["kv_transfer"]["fallback"].get<std::string>().starts_with(
      "the source's signature does not verify"));

  // A genuine worker and key aimed at address 0 or outside the export: refused unread, and the
  // prefill worker lives on. (Asked with prompt B, cached already, so A stays uncached here.)
  json aimed = export_source(prefill->url(), a);
  aimed["address"] = 0;
  CHECK(with_source(decode->url(), b, 6, aimed)
            .second["kv_transfer"]["fallback"]
            .get<std::string>()
            .starts_with("the source's signature does not verify"));
  aimed["address"] = export_source(prefill->url(), a)["address"].get<uint64_t>() - (1 << 20);
  CHECK(with_source(decode->url(), b, 6, aimed)
            .second["kv_transfer"]["fallback"]
            .get<std::string>()
            .starts_with("the source's signature does not verify"));

  // The genuine source with its own prompt is read, and the tokens are the colocated server's.
  const auto [s3, read] = with_source(decode->url(), a, 6, export_source(prefill->url(), a));
  REQUIRE(s3 == 200);
  INFO(read.dump().substr(0, 600));
  CHECK(read["kv_transfer"]["fallback"].is_null());
  CHECK(read["kv_transfer"]["blocks_read"] == 3);
  CHECK(ids_of(read) == ids_of(complete(colocated->url(), greedy(a, 6))));
  CHECK(prefill->terminate() == 0);
  CHECK(decode->terminate() == 0);
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
  fails({"serve", "--kv-transfer-secret-file", "/nonexistent/secret"},
        "--kv-transfer-secret-file /nonexistent/secret cannot be read");
  fails({"router", "--prefill-replicas", "1", "--upstream", "http://127.0.0.1:1"},
        "--prefill-replicas needs --replicas");
  fails({"router", "--replicas", "1", "--role", "decode"}, "--role is the router's to set");
  fails({"router", "--prefill-upstream", "http://127.0.0.1:1"},
        "--prefill-upstream needs --upstream");
}

}  // namespace infergate::test
