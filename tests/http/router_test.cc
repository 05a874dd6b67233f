// `infergate router` in front of real `infergate serve` replicas on loopback: routing, replicas
// killed mid-stream (every stream completes, token for token as without the kill), and the
// faults a router must survive (docs/router.md).
#include <signal.h>

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/http/faulty_replica.h"
#include "tests/http/http_test_support.h"
#include "tests/http/raw_http.h"
#include "tests/http/server_process.h"
#include "tests/http/stream_client.h"

namespace infergate::test {
namespace {

using nlohmann::json;

// `infergate router --port 0` with `flags`.
std::unique_ptr<ServerProcess> start_router(const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {INFERGATE_BINARY, "router", "--port", "0"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return std::make_unique<ServerProcess>(argv);
}

json router_health(const std::string& url) {
  return json::parse(body_of(http_request(url, "GET", "/health", "", 10)), nullptr, false);
}

// Waits (up to 60 s) until `healthy` replicas are in rotation; returns /health.
json wait_healthy(const std::string& url, int healthy) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  json h;
  while (std::chrono::steady_clock::now() < deadline) {
    h = router_health(url);
    if (h.is_object() && h.value("healthy_replicas", 0) == healthy) return h;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the router never had " << healthy << " healthy replicas: " << h.dump());
  return h;
}

// Streamed greedy completions of token-id prompts (8 to 32 tokens, 4 to 16 out, EOS ignored).
std::vector<std::string> stream_bodies(int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> prompt_len(8, 32), out_len(4, 16), token(3, 31999);
  std::vector<std::string> bodies;
  for (int i = 0; i < count; ++i) {
    json prompt = json::array();
    for (int k = prompt_len(rng); k > 0; --k) prompt.push_back(token(rng));
    bodies.push_back(json{{"prompt", prompt},
                          {"max_tokens", out_len(rng)},
                          {"temperature", 0},
                          {"ignore_eos", true},
                          {"stream", true},
                          {"stream_options", {{"include_usage", true}}}}
                         .dump());
  }
  return bodies;
}

double metric(const std::string& url, const std::string& line_start) {
  const std::string text = body_of(http_request(url, "GET", "/metrics", "", 10));
  const size_t at = text.find("\n" + line_start + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + line_start.size() + 2));
}

// The sum over every label set of `name`.
double metric_sum(const std::string& url, const std::string& name) {
  const std::string text = body_of(http_request(url, "GET", "/metrics", "", 10));
  double sum = 0;
  for (size_t at = text.find("\n" + name); at != std::string::npos;
       at = text.find("\n" + name, at + 1)) {
    const size_t end = text.find('\n', at + 1);
    const std::string line = text.substr(at + 1, end - at - 1);
    sum += std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

// Every answer whole and equal to the reference run's, token for token and byte for byte.
void check_same_answers(const std::vector<StreamAnswer>& got,
                        const std::vector<StreamAnswer>& reference,
                        const std::vector<std::string>& bodies) {
  REQUIRE(got.size() == reference.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("request " << i << ": " << got[i].error);
    REQUIRE(got[i].error.empty());
    REQUIRE(got[i].done);
    const int max_tokens = json::parse(bodies[i])["max_tokens"];
    CHECK(got[i].ids.size() == size_t(max_tokens));
    CHECK(got[i].usage_completion_tokens == max_tokens);
    CHECK(got[i].ids == reference[i].ids);
    CHECK(got[i].text == reference[i].text);
    CHECK(got[i].finish_reason == "length");
    for (const std::string& id : got[i].chunk_ids) CHECK(id == got[i].chunk_ids.front());
  }
}

TEST_CASE("router: 1000 streams over 3 replicas survive a SIGKILL, ten seeds, token for token") {
  constexpr int kRequests = 1000;
  auto router =
      start_router({"--replicas", "3", "--policy", "least-outstanding", "--restart-delay-s", "0.2",
                    "--health-interval-s", "0.2", "--model", "tiny", "--threads", "1"});
  wait_healthy(router->url(), 3);
  const std::vector<std::string> bodies = stream_bodies(kRequests, 7);
  const auto reference = stream_all(router->url(), "/v1/completions", bodies, kRequests, 300);
  for (const StreamAnswer& a : reference) REQUIRE(a.error.empty());
  int64_t total_events = 0;
  for (const StreamAnswer& a : reference) total_events += int64_t(a.chunk_ids.size()) + 1;

  for (uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const json health = wait_healthy(router->url(), 3);
    std::mt19937_64 rng(seed);
    const int victim = std::uniform_int_distribution<int>(0, 2)(rng);
    const int64_t kill_at =
        std::uniform_int_distribution<int64_t>(total_events / 4, total_events * 3 / 4)(rng);
    const int pid = health["replicas"][victim]["pid"];
    const auto answers = stream_all(router->url(), "/v1/completions", bodies, kRequests, 300,
                                    [&](size_t, int64_t n) {
                                      if (n == kill_at) ::kill(pid, SIGKILL);
                                    });
    check_same_answers(answers, reference, bodies);
  }
  wait_healthy(router->url(), 3);
  CHECK(metric_sum(router->url(), "infergate_router:replica_restarts_total") == 10);
  CHECK(metric(router->url(), "infergate_router:migrations_total") >= 10);
  CHECK(metric(router->url(), "infergate_router:migrations_failed_total") == 0);
  CHECK(router->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test

namespace infergate::test {
namespace {

TEST_CASE("router: with every replica down, /health and completions answer 503 saying so") {
  const std::string nobody = "http://127.0.0.1:" + std::to_string(unused_local_port());
  auto router = start_router({"--upstream", nobody, "--health-interval-s", "0.1"});
  const std::string health = http_request(router->url(), "GET", "/health");
  CHECK(status_of(health) == 503);
  CHECK(json::parse(body_of(health))["healthy_replicas"] == 0);
  const std::string answer = http_request(router->url(), "POST", "/v1/completions",
                                          R"({"prompt": [1, 2], "max_tokens": 2})");
  CHECK(status_of(answer) == 503);
  CHECK(answer.find("Retry-After") != std::string::npos);
  CHECK(body_of(answer).find("no replica is healthy") != std::string::npos);
  CHECK(router->terminate() == 0);
}

TEST_CASE(
    "router: a replica that never answers, answers garbage or hangs up is retried elsewhere") {
  const auto fault = GENERATE(Fault::kSilent, Fault::kGarbage, Fault::kCrash);
  FaultyReplica bad(fault);
  auto good = start_serve();
  auto router = start_router({"--upstream", bad.url(), good->url(), "--policy", "round-robin",
                              "--first-byte-timeout-s", "1", "--health-interval-s", "0.1",
                              "--breaker-failures", "100"});
  wait_healthy(router->url(), 2);
  for (const bool stream : {false, true, false, true}) {
    const json body = {{"prompt", {1, 2, 3}}, {"max_tokens", 3}, {"stream", stream}};
    const std::string answer = http_request(router->url(), "POST", "/v1/completions", body.dump());
    INFO(answer);
    CHECK(status_of(answer) == 200);
    CHECK(answer.find(stream ? "[DONE]" : "\"usage\"") != std::string::npos);
  }
  CHECK(bad.requests() >= 1);
  CHECK(metric(router->url(), "infergate_router:retries_total") == bad.requests());
  CHECK(router->terminate() == 0);
}

TEST_CASE(
    "router: streams cut by a replica's failing engine step go on elsewhere, token for token") {
  auto faulty = start_serve({"--debug-inject-step-error-every", "9"});
  auto good = start_serve();
  const std::vector<std::string> bodies = stream_bodies(60, 11);
  const auto reference = stream_all(good->url(), "/v1/completions", bodies, 60, 120);
  auto router = start_router({"--upstream", faulty->url(), good->url(), "--policy", "round-robin",
                              "--health-interval-s", "0.1", "--breaker-failures", "1000"});
  wait_healthy(router->url(), 2);
  check_same_answers(stream_all(router->url(), "/v1/completions", bodies, 60, 120), reference,
                     bodies);
  // The faulty replica's engine failed some of them (its /metrics), and the router moved each.
  const std::string faulty_metrics = body_of(http_request(faulty->url(), "GET", "/metrics"));
  CHECK(faulty_metrics.find("finished_reason=\"error\"} 0") == std::string::npos);
  CHECK(metric(router->url(), "infergate_router:migrations_total") +
            metric(router->url(), "infergate_router:retries_total") >=
        1);
  CHECK(router->terminate() == 0);
}

TEST_CASE("router: consecutive failures take a replica out until its health check passes") {
  FaultyReplica bad(Fault::kCrash);
  auto good = start_serve();
  auto router = start_router({"--upstream", bad.url(), good->url(), "--policy", "round-robin",
                              "--health-interval-s", "30", "--breaker-failures", "2"});
  wait_healthy(router->url(), 2);
  for (int i = 0; i < 8; ++i) {
    const std::string answer = http_request(router->url(), "POST", "/v1/completions",
                                            R"({"prompt": [1, 2, 3], "max_tokens": 2})");
    CHECK(status_of(answer) == 200);
  }
  CHECK(bad.requests() == 2);  // then the breaker opened; the next check is 30 s away
  CHECK(router_health(router->url())["healthy_replicas"] == 1);
  CHECK(router->terminate() == 0);
}

// SIGCONTs the stopped replica however the test ends, so that it can be terminated.
struct Continue {
  pid_t pid;
  ~Continue() { ::kill(pid, SIGCONT); }
};

TEST_CASE("router: a stopped replica's requests and streams move to a healthy one in seconds") {
  auto stopped = start_serve();
  auto good = start_serve();
  const Continue resume{stopped->pid()};
  auto router = start_router({"--upstream", stopped->url(), good->url(), "--policy", "round-robin",
                              "--health-interval-s", "0.2", "--breaker-failures", "1000"});
  wait_healthy(router->url(), 2);

  // Requests sent just after the stop: round-robin gives it half, which it holds silently.
  ::kill(stopped->pid(), SIGSTOP);
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> clients;
  std::vector<std::string> answers(4);
  for (size_t i = 0; i < answers.size(); ++i) {
    clients.emplace_back([&, i] {
      const json body = {{"prompt", {1, 2, 3}}, {"max_tokens", 3}, {"stream", i % 2 == 1}};
      answers[i] = http_request(router->url(), "POST", "/v1/completions", body.dump(), 60);
    });
  }
  for (std::thread& t : clients) t.join();
  const double requests_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t i = 0; i < answers.size(); ++i) {
    INFO(answers[i]);
    CHECK(status_of(answers[i]) == 200);
    CHECK(answers[i].find(i % 2 == 1 ? "[DONE]" : "\"usage\"") != std::string::npos);
  }
  CHECK(requests_s < 20);  // not --first-byte-timeout-s's 120 s

  // Streams under way on both when one stops: those relaying from it migrate.
  ::kill(stopped->pid(), SIGCONT);
  wait_healthy(router->url(), 2);
  const std::vector<std::string> bodies = stream_bodies(48, 13);
  const auto reference = stream_all(good->url(), "/v1/completions", bodies, 8, 120);
  start = std::chrono::steady_clock::now();
  const auto got =
      stream_all(router->url(), "/v1/completions", bodies, 8, 60, [&](size_t, int64_t n) {
        if (n == 40) ::kill(stopped->pid(), SIGSTOP);
      });
  const double streams_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_same_answers(got, reference, bodies);
  CHECK(streams_s < 20);  // not --stall-timeout-s's 120 s
  CHECK(metric(router->url(), "infergate_router:migrations_failed_total") == 0);
  WARN("requests " << requests_s << " s, streams " << streams_s << " s");
  ::kill(stopped->pid(), SIGCONT);
  CHECK(router->terminate() == 0);
}

// A client gone while its stream fails over: the router may see the replica's end or the
// client's first (both are pending when it next runs on a busy machine), and either way no request
// may be left on any replica. `after_migration` waits for the move first, so the moved stream's
// cancellation is checked every run, not only when the race goes that way.
void client_gone_during_failover(bool after_migration) {
  auto router = start_router({"--replicas", "2", "--policy", "round-robin", "--restart-delay-s",
                              "30", "--health-interval-s", "0.1", "--model", "tiny"});
  const json health = wait_healthy(router->url(), 2);
  auto client = std::make_unique<RawConnection>(router->url());
  const std::string body = R"({"prompt": [1, 2, 3], "max_tokens": 1000, "ignore_eos": true,
                               "stream": true})";
  client->send(
      "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the stream is under way
  int serving = -1;
  for (int i = 0; i < 2; ++i) {
    if (router_health(router->url())["replicas"][i]["outstanding"] == 1) serving = i;
  }
  INFO(router_health(router->url()).dump());
  REQUIRE(serving >= 0);
  ::kill(health["replicas"][serving]["pid"].get<int>(), SIGKILL);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (after_migration && std::chrono::steady_clock::now() < deadline &&
         metric(router->url(), "infergate_router:migrations_total") < 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  client.reset();  // gone while (or just after) the router moves the stream
  const std::string other = health["replicas"][1 - serving]["url"];
  double running = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    running = metric(other, "infergate:num_requests_running{model_name=\"tiny\"}");
    if (running == 0 && router_health(router->url())["replicas"][1 - serving]["outstanding"] == 0) {
      break;
    }
  }
  CHECK(running == 0);
  CHECK(metric(other, "infergate:num_requests_waiting{model_name=\"tiny\"}") == 0);
  CHECK(router_health(router->url())["replicas"][1 - serving]["outstanding"] == 0);
  const double migrations = metric(router->url(), "infergate_router:migrations_total");
  if (after_migration) {
    CHECK(migrations == 1);  // it did move
  } else {
    CHECK(migrations <= 1);  // moved, or the client's end was seen first
  }
  CHECK(metric(router->url(), "infergate_router:clients_gone_total") == 1);
  CHECK(router->terminate() == 0);
}

TEST_CASE("router: a client gone during a failover leaves no request on any replica") {
  client_gone_during_failover(false);
}

TEST_CASE("router: a client gone just after its stream moved leaves no request on any replica") {
  client_gone_during_failover(true);
}

}  // namespace
}  // namespace infergate::test

namespace infergate::test {
namespace {

struct PrefixRun {
  double achieved = 0, oracle = 0;  // the router's model of the caches
  double replica_hit_rate = 0;      // what the replicas' own prefix caches report
};

// 32 users, each with a system prompt of its own (384 bytes), ask 4 questions each, in a
// shuffled order, one at a time, through a router with 4 replicas and `policy`.
PrefixRun run_prefix_users(const std::string& policy) {
  auto router = start_router(
      {"--replicas", "4", "--policy", policy, "--model", "tiny", "--health-interval-s", "0.1"});
  const json health = wait_healthy(router->url(), 4);
  std::vector<std::pair<int, int>> asks;
  for (int user = 0; user < 32; ++user) {
    for (int q = 0; q < 4; ++q) asks.emplace_back(user, q);
  }
  std::shuffle(asks.begin(), asks.end(), std::mt19937_64(5));
  for (const auto& [user, q] : asks) {
    std::string system = "You are the assistant of user " + std::to_string(user) + ". ";
    while (system.size() < 384) system += "Answer user " + std::to_string(user) + " briefly. ";
    const json body = {{"prompt", system.substr(0, 384) + "Question " + std::to_string(q) + "?"},
                       {"max_tokens", 1}};
    REQUIRE(status_of(http_request(router->url(), "POST", "/v1/completions", body.dump())) == 200);
  }
  PrefixRun run;
  run.achieved = metric(router->url(), "infergate_router:prefix_hit_rate{kind=\"achieved\"}");
  run.oracle = metric(router->url(), "infergate_router:prefix_hit_rate{kind=\"oracle\"}");
  double hits = 0, queries = 0;
  for (const json& r : health["replicas"]) {
    hits += metric(r["url"], "infergate:prefix_cache_hits_total{model_name=\"tiny\"}");
    queries += metric(r["url"], "infergate:prefix_cache_queries_total{model_name=\"tiny\"}");
  }
  run.replica_hit_rate = hits / queries;
  CHECK(router->terminate() == 0);
  return run;
}

TEST_CASE(
    "router: prefix-aware routing reaches the oracle's hit rate, round-robin falls far short") {
  const PrefixRun aware = run_prefix_users("prefix-aware");
  const PrefixRun rr = run_prefix_users("round-robin");
  INFO("prefix-aware: achieved " << aware.achieved << ", oracle " << aware.oracle
                                 << ", replicas' own " << aware.replica_hit_rate);
  INFO("round-robin: achieved " << rr.achieved << ", oracle " << rr.oracle << ", replicas' own "
                                << rr.replica_hit_rate);
  CHECK(aware.achieved >= 0.9 * aware.oracle);
  CHECK(rr.achieved < 0.6 * rr.oracle);
  // The replicas' caches agree: following the prefix finds it there.
  CHECK(aware.replica_hit_rate > 1.5 * rr.replica_hit_rate);
  WARN("prefix-aware: achieved " << aware.achieved << ", oracle " << aware.oracle
                                 << ", replicas' own " << aware.replica_hit_rate
                                 << "; round-robin: achieved " << rr.achieved << ", oracle "
                                 << rr.oracle << ", replicas' own " << rr.replica_hit_rate);
}

}  // namespace
}  // namespace infergate::test

namespace infergate::test {
namespace {

TEST_CASE("router refuses bad flags with exit 2 naming the flag and what is allowed") {
  struct BadFlag {
    std::vector<std::string> flags;
    const char* message;
  };
  const std::string b = "http://127.0.0.1:9";
  const std::vector<BadFlag> table = {
      {{}, "give either --replicas N or --upstream URL"},
      {{"--replicas", "2", "--upstream", b}, "give either --replicas N or --upstream URL"},
      {{"--upstream", b, "--model", "tiny"}, "unknown option --model"},
      {{"--replicas", "2", "--", "--port", "9"}, "--port is the router's own"},
      {{"--upstream", "https://x:1"}, "https"},
      {{"--upstream", b, "--policy", "random"},
       "allowed: round-robin, least-outstanding, prefix-aware"},
      {{"--upstream", b, "--max-attempts", "0"}, "--max-attempts 0 is out of range (1 to 16)"},
      {{"--upstream", b, "--health-interval-s", "0"}, "--health-interval-s"},
      {{"--upstream", b, "--cache-threshold", "2"}, "--cache-threshold 2 is out of range (0 to 1)"},
      {{"--upstream", b, "--balance-rel", "nan"}, "--balance-rel nan is out of range (1 to"},
      {{"--upstream", b, "--api-key", ""}, "--api-key is empty"},
      {{"--replicas", "2000"}, "--replicas 2000 is out of range (1 to 1024)"},
      {{"--replicas", "0"}, "--replicas 0 is out of range (1 to 1024)"},
      {{"--replicas", "1", "--prefill-replicas", "0"},
       "--prefill-replicas 0 is out of range (1 to 1024)"},
      {{"--replicas", "1", "--restart-delay-s", "-5"},
       "--restart-delay-s -5 is out of range (0 to 86400)"},
      {{"--replicas", "1", "--replica-start-timeout-s", "0"},
       "--replica-start-timeout-s 0 is out of range (above 0 to 86400)"},
      // Checked before any replica starts: no-such-model would fail first otherwise.
      {{"--replicas", "1", "--model", "no-such-model", "--cache-threshold", "2"},
       "--cache-threshold 2 is out of range"},
      {{"--replicas", "1", "--model", "no-such-model"}, "replica 0"},
      // Bounded by the machine's CPUs and memory before any replica starts.
      {{"--replicas", "1024", "--model", "tiny"}, "--replicas 1024"},
      {{"--replicas", "2", "--model", "tiny", "--kv-cache-bytes", "1000000000000"},
       "available (MemAvailable): at most"},
      // The spellings from before --backend URL was renamed (it clashed with serve's).
      {{"--backend", b}, "the router's servers are now --upstream URL"},
      {{"--backend=" + b}, "the router's servers are now --upstream URL"},
      {{"--prefill-backend", b}, "--prefill-backend is now --prefill-upstream"},
      {{"--upstream", b, "--backend-api-key", "k"}, "--backend-api-key is now --upstream-api-key"},
      {{"--upstream", b, "--gpus-per-replica", "1"}, "--gpus-per-replica needs --replicas"},
  };
  for (const BadFlag& bad : table) {
    std::vector<std::string> argv = {INFERGATE_BINARY, "router", "--port", "0"};
    argv.insert(argv.end(), bad.flags.begin(), bad.flags.end());
    INFO(bad.message);
    const CommandResult r = run_command(argv, 60);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains(bad.message));
    CHECK(r.out.find("listening") == std::string::npos);
  }
}

// The replica's environment as its process has it.
std::string environment_variable(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
  for (std::string entry; std::getline(in, entry, '\0');) {
    if (entry.starts_with(name + "=")) return entry.substr(name.size() + 1);
  }
  return "(unset)";
}

TEST_CASE("router --gpus-per-replica hands each replica its GPUs round-robin") {
  // The router's own CUDA_VISIBLE_DEVICES is the list it hands out; the cpu backend lets the
  // replicas start here, and each one's environment is read from /proc.
  auto router = std::make_unique<ServerProcess>(std::vector<std::string>{
      "/usr/bin/env", "CUDA_VISIBLE_DEVICES=3,5,GPU-aa", INFERGATE_BINARY, "router", "--port", "0",
      "--replicas", "2", "--prefill-replicas", "1", "--gpus-per-replica", "2", "--model", "tiny",
      "--threads", "1"});
  const json health = wait_healthy(router->url(), 2);
  // Prefill workers come first: prefill 0 takes 3,5, decode 0 GPU-aa,3, decode 1 5,GPU-aa.
  CHECK(environment_variable(health["prefill_replicas"][0]["pid"].get<int>(),
                             "CUDA_VISIBLE_DEVICES") == "3,5");
  CHECK(environment_variable(health["replicas"][0]["pid"].get<int>(), "CUDA_VISIBLE_DEVICES") ==
        "GPU-aa,3");
  CHECK(environment_variable(health["replicas"][1]["pid"].get<int>(), "CUDA_VISIBLE_DEVICES") ==
        "5,GPU-aa");
  CHECK(router->terminate() == 0);
  const CommandResult too_many =
      run_command({"/usr/bin/env", "CUDA_VISIBLE_DEVICES=0,1", INFERGATE_BINARY, "router", "--port",
                   "0", "--replicas", "1", "--gpus-per-replica", "3", "--model", "tiny"},
                  60);
  CHECK(too_many.status == 2);
  CHECK_THAT(too_many.err, Catch::Contains("--gpus-per-replica 3 is out of range (1 to 2, the "
                                           "GPUs visible here)"));
}

// serve_command_test.cc holds serve's own table; this is the decode worker the router starts.
TEST_CASE("serve --role decode refuses a KV read rate that is not a number") {
  const CommandResult r = run_command(
      {INFERGATE_BINARY, "serve", "--port", "0", "--role", "decode", "--kv-read-rate-mb-s", "nan"},
      60);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("--kv-read-rate-mb-s nan is out of range (0 to 1000000)"));
  CHECK(r.out.find("listening") == std::string::npos);
}

}  // namespace
}  // namespace infergate::test

namespace infergate::test {
namespace {

TEST_CASE("router target: a workload with a replica killed mid-run loses no request") {
  const std::string dir = std::filesystem::temp_directory_path() /
                          ("infergate-router-workload-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const json workload = {
      {"schema", "infergate.workload/v1"},
      {"name", "dp-fault-test"},
      {"target",
       {{"type", "router"},
        {"model", {{"preset", "tiny"}}},
        {"engine", {{"max_num_seqs", 16}, {"num_threads", 1}}},
        {"router", {{"replicas", 2}, {"policy", "round-robin"}, {"restart_delay_s", 0.3}}}}},
      {"dataset",
       {{"type", "synthetic"},
        {"input_tokens", {{"dist", "uniform"}, {"min", 8}, {"max", 32}}},
        {"output_tokens", {{"dist", "fixed"}, {"value", 48}}}}},
      // Long enough that the killed replica is back (0.3 s, then its start: about 1 s) before
      // the end. 100 requests (2-3 s here) ended before it under a busy CI's parallel tests;
      // 400 keep one replica busy for 8 s or more, a margin of 8x the restart.
      {"load", {{"mode", "closed"}, {"concurrency", 8}, {"num_requests", 400}}},
      {"faults", {{{"kill_replica", 1}, {"after_requests", 12}}}}};
  const std::string file = dir + "/w.json", out = dir + "/out.json";
  std::ofstream(file) << workload.dump();
  const CommandResult r =
      run_command({INFERGATE_BINARY, "run", file, "--out", out, "--quiet"}, 300);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json results = json::parse(std::ifstream(out));
  std::filesystem::remove_all(dir);
  CHECK(results["summary"]["num_completed"] == 400);
  CHECK(results["summary"]["num_errors"] == 0);
  const json& engine = results["points"][0]["repetitions"][0]["engine"];
  CHECK(engine["http_client"]["usage"]["mismatches"] == 0);  // every answer had its 48 tokens
  const json& router = engine["router"];
  INFO(router.dump());
  REQUIRE(router["faults"].size() == 1);
  CHECK_FALSE(router["faults"][0].contains("error"));
  CHECK(router["faults"][0]["kill_replica"] == 1);
  CHECK(router["faults"][0]["in_flight"].get<int>() >= 1);  // round-robin: it had some
  CHECK(router["replicas"][1]["restarts"] == 1);
  CHECK(router["migrations"].get<int>() + router["retries"].get<int>() >= 1);
  CHECK(router["migrations_failed"] == 0);
}

}  // namespace
}  // namespace infergate::test
