// The openai target's fields in workload files: defaults, the resolved form, and the refusals.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"

namespace infergate {
namespace {

using nlohmann::json;

json openai_doc(const json& target_patch) {
  json doc = {{"schema", "infergate.workload/v1"},
              {"name", "http"},
              {"target", {{"type", "openai"}, {"url", "http://127.0.0.1:8000"}}},
              {"load", {{"mode", "closed"}, {"num_requests", 4}}}};
  doc["target"].merge_patch(target_patch);
  return doc;
}

TEST_CASE("openai targets: defaults and the resolved form") {
  const Workload w = parse_workload(openai_doc(json::object()), "w.json");
  CHECK(w.target.timeout_s == 600);
  CHECK(w.target.vocab_size == 0);
  CHECK(w.target.model_name.empty());
  CHECK(w.resolved["target"] == json{{"type", "openai"},
                                     {"url", "http://127.0.0.1:8000"},
                                     {"model", ""},
                                     {"api", "completions"},
                                     {"timeout_s", 600.0}});
  const Workload set = parse_workload(
      openai_doc({{"model", "tiny"}, {"vocab_size", 32000}, {"timeout_s", 2.5}, {"api", "chat"}}),
      "w.json");
  CHECK(set.resolved["target"]["vocab_size"] == 32000);
  CHECK(set.resolved["target"]["timeout_s"] == 2.5);
  CHECK(parse_workload(set.resolved, "resolved.json").resolved == set.resolved);
  CHECK(set.hash != w.hash);
}

TEST_CASE("openai targets: bad fields are refused at their JSON path") {
  const std::vector<std::pair<json, std::vector<std::string>>> cases = {
      {{{"url", "ftp://api.example.com"}},
       {"w.json: $.target.url: \"ftp://api.example.com\": expected http[s]://"}},
      {{{"tls", {{"verify", false}}}}, {"$.target.tls:", "is for an https:// url"}},
      {{{"url", "https://h"}, {"tls", {{"ca_file", "/no/such/ca.pem"}}}},
       {"$.target.tls.ca_file: \"/no/such/ca.pem\" is not an existing file"}},
      {{{"url", "https://h"}, {"tls", {{"verify", false}, {"ca_file", "/etc/hostname"}}}},
       {"$.target.tls.ca_file:", "not used with \"verify\": false"}},
      {{{"url", "https://h"}, {"tls", {{"verfiy", false}}}}, {"$.target.tls.verfiy"}},
      {{{"headers", {{"Host", "x"}}}}, {"$.target.headers.Host:", "the client writes Host itself"}},
      {{{"headers", {{"X-A", "1"}, {"x-a", "2"}}}}, {"$.target.headers.x-a:", "a second x-a"}},
      {{{"headers", {{"Bad Name", "1"}}}}, {"$.target.headers.Bad Name:", "a header name is"}},
      {{{"headers", {{"X-A", "a\r\nX-Injected: 1"}}}},
       {"$.target.headers.X-A:", "only printable ASCII characters and tabs"}},
      {{{"headers", {{"X-A", "${1BAD}"}}}},
       {"$.target.headers.X-A:", "environment variable's name"}},
      {{{"headers", {{"X-A", "${UNCLOSED"}}}}, {"$.target.headers.X-A:", "${...} must enclose"}},
      {{{"headers", {{"X-A", 5}}}}, {"$.target.headers.X-A: expected a string"}},
      {{{"headers", "X-A: 1"}}, {"$.target.headers:", "expected an object"}},
      {{{"reasoning_span", {{"open", "<think>"}}}}, {"$.target.reasoning_span.close:", "missing"}},
      {{{"reasoning_span", {{"close", std::string(65, 'x')}}}},
       {"$.target.reasoning_span.close:", "1 to 64 bytes"}},
      {{{"reasoning_span", {{"close", "</think>"}, {"end", "x"}}}},
       {"$.target.reasoning_span.end"}},
      {{{"url", "http://127.0.0.1:8000/v1"}}, {"$.target.url:", "without /v1"}},
      {{{"timeout_s", 0}},
       {"$.target.timeout_s: 0 is out of range (must be > 0 and <= 86400 (seconds))"}},
      {{{"timeout_s", 1e308}}, {"$.target.timeout_s: 1e+308 is out of range", "<= 86400"}},
      {{{"timeout_s", "5"}}, {"$.target.timeout_s: expected a number"}},
      {{{"vocab_size", 0}}, {"$.target.vocab_size: 0 is out of range", "ask the server"}},
      {{{"vocab_size", 1.5}}, {"$.target.vocab_size: expected an integer"}},
      {{{"api", "responses"}}, {"$.target.api: \"responses\" is not allowed"}},
      {{{"token_delay_us", 3}}, {"$.target.token_delay_us: not used with type \"openai\""}},
  };
  for (const auto& [patch, expected] : cases) {
    INFO(patch.dump());
    try {
      parse_workload(openai_doc(patch), "w.json");
      FAIL("accepted");
    } catch (const WorkloadError& e) {
      for (const std::string& part : expected) CHECK_THAT(e.what(), Catch::Contains(part));
    }
  }
}

TEST_CASE("openai headers and tls are kept as written and hashed") {
  const json patch = {{"url", "https://gateway.example.com"},
                      {"headers", {{"X-Gateway-Token", "${GATEWAY_TOKEN}"}, {"X-Team", "infra"}}},
                      {"tls", {{"verify", false}}}};
  const Workload w = parse_workload(openai_doc(patch), "w.json");
  CHECK(w.target.headers.size() == 2);
  CHECK(w.target.headers[0] ==
        std::make_pair(std::string("X-Gateway-Token"), std::string("${GATEWAY_TOKEN}")));
  CHECK_FALSE(w.target.tls_verify);
  CHECK(w.resolved["target"]["headers"]["X-Gateway-Token"] == "${GATEWAY_TOKEN}");
  CHECK(w.resolved["target"]["tls"] == json{{"verify", false}});
  CHECK(parse_workload(w.resolved, "resolved.json").hash == w.hash);
  const Workload plain =
      parse_workload(openai_doc({{"url", "https://gateway.example.com"}}), "w.json");
  CHECK(plain.hash != w.hash);
  CHECK_FALSE(plain.resolved["target"].contains("tls"));
  CHECK_FALSE(plain.resolved["target"].contains("headers"));
}

TEST_CASE("openai fields are refused on the other target types") {
  json engine = openai_doc(json::object());
  engine["target"] = {{"type", "engine"}, {"timeout_s", 5}};
  CHECK_THROWS_WITH(parse_workload(engine, "w.json"),
                    Catch::Contains("$.target.timeout_s: not used with type \"engine\""));
  json echo = openai_doc(json::object());
  echo["target"] = {{"type", "echo"}, {"vocab_size", 5}};
  CHECK_THROWS_WITH(parse_workload(echo, "w.json"),
                    Catch::Contains("$.target.vocab_size: not used with type \"echo\""));
}

TEST_CASE("openai targets: target.tokenizer names a tokenizer.json directory or a GGUF file") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("infergate-target-tokenizer-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "hf");
  std::ofstream(dir / "hf" / "tokenizer.json") << "{}";
  std::ofstream(dir / "m.gguf") << "GGUF";
  std::ofstream(dir / "notes.txt") << "x";
  const Workload hf = parse_workload(openai_doc({{"tokenizer", (dir / "hf").string()}}), "w.json");
  REQUIRE(hf.target.tokenizer);
  CHECK(hf.target.tokenizer->kind == "safetensors");
  CHECK(hf.resolved["target"]["tokenizer"] == (dir / "hf").string());
  CHECK(parse_workload(hf.resolved, "resolved.json").resolved == hf.resolved);
  const Workload gguf =
      parse_workload(openai_doc({{"tokenizer", (dir / "m.gguf").string()}}), "w.json");
  CHECK(gguf.target.tokenizer->kind == "gguf");
  CHECK(gguf.hash != hf.hash);
  CHECK_FALSE(parse_workload(openai_doc(json::object()), "w.json").target.tokenizer);
  for (const std::string& bad :
       {dir.string(), (dir / "notes.txt").string(), std::string("nowhere")}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_workload(openai_doc({{"tokenizer", bad}}), "w.json"),
                      Catch::Contains("$.target.tokenizer:") &&
                          Catch::Contains("a .gguf file or a directory holding tokenizer.json"));
  }
  json engine = openai_doc(json::object());
  engine["target"] = {{"type", "engine"}, {"tokenizer", (dir / "hf").string()}};
  CHECK_THROWS_WITH(parse_workload(engine, "w.json"),
                    Catch::Contains("$.target.tokenizer: not used with type \"engine\""));
  std::filesystem::remove_all(dir);
}

TEST_CASE("openai targets: server_metrics fields, their resolved form and hash") {
  const Workload w = parse_workload(openai_doc({{"server_metrics",
                                                 {{"scrape", false},
                                                  {"path", "/prom"},
                                                  {"interval_ms", 50},
                                                  {"dialect", "sglang"},
                                                  {"pid", 4242}}}}),
                                    "w.json");
  const ServerMetricsSpec& m = w.target.server_metrics;
  CHECK_FALSE(m.scrape);
  CHECK(m.path == "/prom");
  CHECK(m.interval_ms == 50);
  CHECK(m.dialect == "sglang");
  CHECK(m.pid == 4242);
  CHECK(w.resolved["target"]["server_metrics"]["dialect"] == "sglang");
  CHECK(parse_workload(w.resolved, "resolved.json").resolved == w.resolved);
  CHECK(w.hash != parse_workload(openai_doc(json::object()), "w.json").hash);
  // Only what is given changes; the rest keeps its default.
  const Workload vllm =
      parse_workload(openai_doc({{"server_metrics", {{"dialect", "vllm"}}}}), "w.json");
  CHECK(vllm.target.server_metrics.scrape);
  CHECK(vllm.target.server_metrics.interval_ms == 500);
  CHECK(vllm.resolved["target"]["server_metrics"]["scrape"] == true);
  // The defaults leave the resolved form, and so the hash, as it was before scraping existed.
  const Workload defaults = parse_workload(
      openai_doc({{"server_metrics", {{"scrape", true}, {"interval_ms", 500}}}}), "w.json");
  CHECK_FALSE(defaults.resolved["target"].contains("server_metrics"));
  CHECK(defaults.hash == parse_workload(openai_doc(json::object()), "w.json").hash);
}

TEST_CASE("openai targets: bad server_metrics fields are refused at their JSON path") {
  const std::vector<std::pair<json, std::vector<std::string>>> cases = {
      {{{"interval_ms", 10}},
       {"w.json: $.target.server_metrics.interval_ms: 10 is out of range",
        "[50, 60000] (milliseconds)"}},
      {{{"interval_ms", 1e6}}, {"$.target.server_metrics.interval_ms:"}},
      {{{"interval_ms", 0.5}}, {"$.target.server_metrics.interval_ms: expected an integer"}},
      {{{"dialect", "tgi"}},
       {"$.target.server_metrics.dialect: \"tgi\" is not allowed",
        "auto, infergate, vllm, sglang, llamacpp"}},
      {{{"path", "metrics"}}, {"$.target.server_metrics.path:", "must be a path such as"}},
      {{{"path", "/a b"}}, {"$.target.server_metrics.path:", "no spaces"}},
      {{{"path", "/" + std::string(300, 'm')}}, {"$.target.server_metrics.path:", "up to 255"}},
      {{{"pid", -1}}, {"$.target.server_metrics.pid: -1 is out of range", "[0, 4194304]"}},
      {{{"scrape", "yes"}}, {"$.target.server_metrics.scrape: expected true or false"}},
      {{{"every_ms", 5}}, {"$.target.server_metrics.every_ms"}},
  };
  for (const auto& [patch, expected] : cases) {
    INFO(patch.dump());
    try {
      parse_workload(openai_doc({{"server_metrics", patch}}), "w.json");
      FAIL("accepted");
    } catch (const WorkloadError& e) {
      for (const std::string& part : expected) CHECK_THAT(e.what(), Catch::Contains(part));
    }
  }
  json engine = openai_doc(json::object());
  engine["target"] = {{"type", "engine"}, {"server_metrics", {{"scrape", true}}}};
  CHECK_THROWS_WITH(parse_workload(engine, "w.json"),
                    Catch::Contains("$.target.server_metrics: not used with type \"engine\""));
}

}  // namespace
}  // namespace infergate
