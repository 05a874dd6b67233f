// The openai target over https:// against a real TLS server on loopback (tests/http/
// tls_gateway.py: Python's ssl in front of infergate_http_echo) with a throwaway CA
// (tests/http/test_ca.sh): verification against the workload's CA file, a wrong CA refused naming
// the certificate check, the handshakes timed apart, and the workload's own headers (an auth
// gateway's token read from the environment) sent and kept out of the results.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/driver/run_workload.h"
#include "tests/http/http_test_support.h"
#include "tests/temp_dir.h"

namespace infergate::test {
namespace {

using nlohmann::json;

// A CA, a server certificate it signed and another CA, in a temporary folder.
struct TestPki {
  TestPki() {
    const CommandResult r =
        run_command({"/bin/bash", INFERGATE_SOURCE_DIR "/tests/http/test_ca.sh", dir.path()});
    if (r.status != 0) throw std::runtime_error("test_ca.sh failed: " + r.err);
  }
  std::string file(const char* name) const { return dir.file(name); }
  infergate::testing::TempDir dir{"infergate-pki"};
};

std::string port_of(const std::string& url) { return url.substr(url.rfind(':') + 1); }

// https://127.0.0.1:PORT in front of `echo`.
std::unique_ptr<ServerProcess> start_gateway(const TestPki& pki, const ServerProcess& echo) {
  return std::make_unique<ServerProcess>(std::vector<std::string>{
      "/usr/bin/python3", INFERGATE_SOURCE_DIR "/tests/http/tls_gateway.py", pki.file("server.pem"),
      pki.file("server.key"), port_of(echo.url())});
}

json run_over(const std::string& url, const json& target) {
  json patch = {{"target", target}};
  patch["target"]["url"] = url;
  return run_and_read_back(http_workload(url, patch));
}

const json& repetition(const json& results) { return results["points"][0]["repetitions"][0]; }

TEST_CASE("an https target verifies the server against the workload's CA and times handshakes") {
  const TestPki pki;
  auto echo = start_echo();
  auto gateway = start_gateway(pki, *echo);
  REQUIRE(gateway->url().rfind("https://", 0) == 0);
  const json results = run_over(gateway->url(), {{"tls", {{"ca_file", pki.file("ca.pem")}}}});
  const json& client = repetition(results)["engine"]["http_client"];
  INFO(client.dump());
  CHECK(repetition(results)["summary"]["num_completed"] == 12);
  CHECK(client["errors"] == 0);
  const json& c = client["connections"];
  CHECK(c["tls_handshakes"] == c["opened"]);
  CHECK(c["tls_handshakes"].get<int>() >= 1);
  CHECK(c["tls_handshake_ms_mean"].get<double>() > 0);
  CHECK(c["tls_handshake_ms_max"].get<double>() >= c["tls_handshake_ms_mean"].get<double>());
  CHECK(results["workload"]["target"]["tls"]["ca_file"] == pki.file("ca.pem"));
  gateway->terminate();
  CHECK(echo->terminate() == 0);
}

TEST_CASE("an https target trusting another CA is refused naming the certificate check") {
  const TestPki pki;
  auto echo = start_echo();
  auto gateway = start_gateway(pki, *echo);
  const json wrong_ca = {{"tls", {{"ca_file", pki.file("other_ca.pem")}}}};

  // Asking the server for its model fails before the run, naming the check.
  CHECK_THROWS_WITH(run_over(gateway->url(), wrong_ca),
                    Catch::Contains("TLS handshake failed: certificate verify failed") &&
                        Catch::Contains("/v1/models"));

  // With the model given, every request fails, classed apart with the reason.
  json named = wrong_ca;
  named["model"] = "echo";
  named["vocab_size"] = 32000;
  const json results = run_over(gateway->url(), named);
  const json& errors = repetition(results)["errors"];
  INFO(errors.dump());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["class"] == "tls handshake failed");
  CHECK(errors[0]["count"] == 12);
  CHECK_THAT(errors[0]["first_message"].get<std::string>(),
             Catch::Contains("certificate verify failed: unable to get local issuer certificate"));

  // verify: false trusts anything (and is said in the workload the results embed).
  const json unchecked = run_over(gateway->url(), {{"tls", {{"verify", false}}}});
  CHECK(repetition(unchecked)["summary"]["num_completed"] == 12);
  CHECK(unchecked["workload"]["target"]["tls"]["verify"] == false);
  gateway->terminate();
  CHECK(echo->terminate() == 0);
}

TEST_CASE("a workload's headers reach the server with ${NAME} from the environment, unrecorded") {
  auto gateway = start_echo({"--require-header", "X-Gateway-Token: s3cret"});
  const json headers = {{"headers", {{"X-Gateway-Token", "${INFERGATE_TEST_GATEWAY_TOKEN}"}}}};

  ::unsetenv("INFERGATE_TEST_GATEWAY_TOKEN");
  CHECK_THROWS_WITH(run_over(gateway->url(), headers),
                    Catch::Contains("target.headers.X-Gateway-Token") &&
                        Catch::Contains("INFERGATE_TEST_GATEWAY_TOKEN is not set"));

  ::setenv("INFERGATE_TEST_GATEWAY_TOKEN", "s3cret", 1);
  const json results = run_over(gateway->url(), headers);
  ::unsetenv("INFERGATE_TEST_GATEWAY_TOKEN");
  CHECK(repetition(results)["summary"]["num_completed"] == 12);
  CHECK(results.dump().find("s3cret") == std::string::npos);
  CHECK(results["workload"]["target"]["headers"]["X-Gateway-Token"] ==
        "${INFERGATE_TEST_GATEWAY_TOKEN}");

  // Without the header the gateway refuses every request (the model given: nothing is asked).
  const json refused = run_over(gateway->url(), {{"model", "echo"}, {"vocab_size", 32000}});
  const json& errors = repetition(refused)["errors"];
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["class"] == "http status 401");
  CHECK(gateway->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
