// The openai target against servers that close keep-alive connections as real ones do, without
// saying so (docs/metrics.md, "Connections"): after every answer, after N answers, after some
// idle time, and HTTP/1.0's close after each answer. At 1, 8 and 200 requests per second no
// request may fail: a server's keep-alive policy is not a failed request.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

struct Policy {
  std::string name;
  std::vector<std::string> flags;
};

json client_after(const std::string& url, double rate, int requests) {
  const json results = run_and_read_back(http_workload(url, {{"load",
                                                              {{"rate", rate},
                                                               {"arrival", "constant"},
                                                               {"num_requests", requests},
                                                               {"warmup_requests", 0}}}}));
  return results["points"][0]["repetitions"][0]["engine"]["http_client"];
}

TEST_CASE("servers closing keep-alive connections silently lose no request at 1, 8, 200 req/s") {
  const Policy policy =
      GENERATE(Policy{"close after every answer", {"--close-after-requests", "1"}},
               Policy{"close after 3 answers", {"--close-after-requests", "3"}},
               Policy{"close idle after 50 ms", {"--idle-close-ms", "50"}},
               Policy{"HTTP/1.0", {"--http10"}});
  // Answers that take a while (20 ms a token), so several are in flight and several
  // connections lie idle in the pool, each closed by the server.
  std::vector<std::string> flags = {"--token-delay-us", "20000"};
  flags.insert(flags.end(), policy.flags.begin(), policy.flags.end());
  auto echo = start_echo(flags);
  for (const auto& [rate, requests] :
       std::vector<std::pair<double, int>>{{1, 4}, {8, 24}, {200, 400}}) {
    INFO(policy.name << " at " << rate << " req/s");
    const json client = client_after(echo->url(), rate, requests);
    INFO(client.dump());
    CHECK(client["errors"] == 0);
    CHECK(client["ok"] == requests);
    const json& c = client["connections"];
    CHECK(c["opened"].get<int>() + c["reused"].get<int>() ==
          requests + c["stale_retries"].get<int>());
    if (policy.name == "close idle after 50 ms" && rate == 1) {
      CHECK(c["closed_idle"].get<int>() >= requests - 1);  // each found closed, none tried
      CHECK(c["stale_retries"] == 0);
    }
    if (policy.name == "HTTP/1.0") CHECK(c["reused"] == 0);  // never pooled
  }
  CHECK(echo->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
