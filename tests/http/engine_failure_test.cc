// `infergate serve` when an engine step fails (docs/server.md, "A failing engine step"): the
// failed step's streams end with an error event, /metrics counts them and the server goes on;
// a failure the engine cannot contain ends every stream and exits 70 with one line naming it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/http/http_test_support.h"
#include "tests/http/raw_http.h"
#include "tests/http/stream_client.h"

namespace infergate::test {
namespace {

using nlohmann::json;

std::vector<std::string> long_streams(int count, int max_tokens) {
  std::vector<std::string> bodies;
  for (int i = 0; i < count; ++i) {
    bodies.push_back(json{
        {"prompt", {3 + i, 4, 5, 6}},
        {"max_tokens", max_tokens},
        {"ignore_eos", true},
        {"stream", true}}.dump());
  }
  return bodies;
}

double error_finishes(const std::string& url) {
  const std::string text = body_of(http_request(url, "GET", "/metrics", "", 10));
  const std::string key = "finished_reason=\"error\"} ";
  const size_t at = text.find(key);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + key.size()));
}

TEST_CASE("serve: a failing engine step ends its streams with an error event and goes on") {
  auto server = start_serve({"--debug-inject-step-error-every", "7"});
  const auto answers = stream_all(server->url(), "/v1/completions", long_streams(12, 20), 12, 120);
  int failed = 0;
  for (const StreamAnswer& a : answers) {
    INFO(a.error);
    REQUIRE(a.status == 200);
    if (a.error.empty()) {
      CHECK(a.ids.size() == 20u);
    } else {
      CHECK(a.error.find("the engine step failed: injected step error") != std::string::npos);
      CHECK(a.done);  // the error event, then [DONE]: the stream ends cleanly
      ++failed;
    }
  }
  CHECK(failed > 0);
  CHECK(error_finishes(server->url()) == failed);
  // The server goes on. Each request below is one step, so of two in a row at most one meets
  // the next injected failure (a 500 naming it, the engine's fault, for another server to take).
  int answered = 0;
  for (int i = 0; i < 2 && answered == 0; ++i) {
    const std::string after = http_request(server->url(), "POST", "/v1/completions",
                                           R"({"prompt": [1, 2, 3], "max_tokens": 1})");
    INFO(after);
    if (status_of(after) == 200) ++answered;
    if (status_of(after) != 200) CHECK(status_of(after) == 500);
  }
  CHECK(answered == 1);
  CHECK(server->terminate() == 0);
}

TEST_CASE("serve: an engine failure it cannot contain ends every stream and exits 70") {
  auto server =
      start_serve({"--debug-inject-step-error-every", "6", "--debug-inject-step-error-fatal"});
  const auto answers = stream_all(server->url(), "/v1/completions", long_streams(4, 200), 4, 120);
  for (const StreamAnswer& a : answers) {
    INFO(a.error);
    CHECK(a.error.find("the engine failed: injected step error") != std::string::npos);
  }
  REQUIRE(server->wait(30) == 70);
  const std::string out = server->output();
  CHECK(out.find("infergate serve: the engine failed and cannot go on: injected step error") !=
        std::string::npos);
}

}  // namespace
}  // namespace infergate::test
