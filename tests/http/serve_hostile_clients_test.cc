// `infergate serve` processes against clients that misbehave on purpose: malformed and oversized
// request heads, headers and bodies that never finish, idle connections, more connections than
// allowed or than the process has file descriptors for. Each gets the status HTTP gives it (or
// a prompt close), and the server keeps answering /health afterwards.
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/http/http_test_support.h"
#include "tests/http/raw_http.h"

namespace infergate::test {
namespace {

constexpr double kWaitSeconds = 10;  // every wait below is bounded by this

std::string health(const std::string& url) { return body_of(http_request(url, "GET", "/health")); }

std::string repeated(const std::string& piece, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += piece;
  return out;
}

struct BadRequest {
  const char* what;
  std::string bytes;
  int status;
  const char* message;  // in the error body
};

// The bad-input table for the HTTP layer (request bodies have theirs in tests/server/).
std::vector<BadRequest> bad_requests() {
  const std::string post = "POST /v1/completions HTTP/1.1\r\nHost: x\r\n";
  return {
      {"a 100 KB request target", "GET /" + std::string(100000, 'a') + " HTTP/1.1\r\n\r\n", 414,
       "request line is longer than 8192 bytes"},
      {"a 9 KB request target in a small header",
       "GET /health?" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", 414,
       "request line is longer than 8192 bytes"},
      {"a 100 KB header field",
       "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(100000, 'a') + "\r\n\r\n", 431,
       "header is larger than 32768 bytes"},
      {"10000 header fields", "GET /health HTTP/1.1\r\n" + repeated("X-A: b\r\n", 10000) + "\r\n",
       431, "header is larger than 32768 bytes"},
      {"Content-Length -5", post + "Content-Length: -5\r\n\r\n", 400, "Content-Length"},
      {"Content-Length abc", post + "Content-Length: abc\r\n\r\n", 400, "Content-Length"},
      {"two Content-Length values that disagree",
       post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello", 400, "Content-Length"},
      {"Content-Length 2^64+1", post + "Content-Length: 18446744073709551617\r\n\r\n", 400,
       "Content-Length"},
      {"Content-Length with chunked",
       post + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400,
       "malformed HTTP request"},
      {"a chunk size that is not hexadecimal",
       post + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400, "chunk"},
      {"a chunk size past 2^64",
       post + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nhello\r\n0\r\n\r\n", 400,
       "chunk"},
      {"a chunked body over 1 MiB", post + "Transfer-Encoding: chunked\r\n\r\n200000\r\n{", 413,
       "larger than 1048576 bytes"},
      {"a request line without a version", "GET /health\r\nHost: x\r\n\r\n", 400,
       "malformed HTTP request"},
      {"a header field without a colon", "GET /health HTTP/1.1\r\nHost x\r\n\r\n", 400,
       "malformed HTTP request"},
  };
}

TEST_CASE("malformed or oversized request heads get 400, 413, 414 or 431 and a closed connection") {
  auto server = start_serve();
  for (const BadRequest& bad : bad_requests()) {
    INFO(bad.what);
    RawConnection c(server->url());
    c.send(bad.bytes);
    bool closed = false;
    const std::string response = c.read_until_close(kWaitSeconds, &closed);
    CHECK(status_of(response) == bad.status);
    CHECK_THAT(body_of(response), Catch::Contains(bad.message));
    CHECK_THAT(response, Catch::Contains("Connection: close"));
    CHECK(closed);
  }
  CHECK(health(server->url()) == "ok");
  CHECK(server->terminate() == 0);
}

// Bodies that parse but that the server refuses: the refusal names the problem, quotes at most
// an excerpt of what the client sent, and does not run the request another way than asked.
TEST_CASE("duplicate keys and huge names in a body get a bounded 400 or 404") {
  auto server = start_serve();
  const std::string huge(500000, 'k');
  const struct {
    const char* what;
    std::string body;
    int status;
    const char* message;
  } cases[] = {
      {"max_tokens given twice", R"({"prompt": [1], "max_tokens": 1, "max_tokens": 1000})", 400,
       "duplicate key 'max_tokens'"},
      {"a 500 KB unknown field", R"({"prompt": [1], ")" + huge + R"(": 1})", 400,
       "unknown field 'kkkk"},
      {"a 500 KB model name", R"({"prompt": [1], "model": ")" + huge + R"("})", 404,
       "the model 'kkkk"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const std::string response =
        http_request(server->url(), "POST", "/v1/completions", c.body, kWaitSeconds);
    CHECK(status_of(response) == c.status);
    CHECK_THAT(body_of(response), Catch::Contains(c.message));
    CHECK(body_of(response).size() < 1000);
  }
  CHECK(health(server->url()) == "ok");
  CHECK(server->terminate() == 0);
}

TEST_CASE("pipelined requests on one connection are all answered in order") {
  auto server = start_serve();
  RawConnection c(server->url());
  c.send(
      "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  bool closed = false;
  const std::string responses = c.read_until_close(kWaitSeconds, &closed);
  const size_t first = responses.find("HTTP/1.1 200"), second = responses.find("HTTP/1.1 404");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  CHECK(responses.find("HTTP/1.1 200", second) != std::string::npos);
  CHECK(closed);
  CHECK(server->terminate() == 0);
}

TEST_CASE("a header or body that stops arriving gets 408 and an idle connection is closed") {
  auto server = start_serve(
      {"--header-timeout-s", "0.3", "--body-timeout-s", "0.3", "--idle-timeout-s", "0.3"});
  struct Slow {
    const char* what;
    std::string bytes;
    const char* message;
  };
  const std::vector<Slow> slow = {
      {"half a header", "GET /health HTTP/1.1\r\nHost: x\r\n", "--header-timeout-s"},
      {"one byte", "G", "--header-timeout-s"},
      {"half a body", "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",
       "--body-timeout-s"},
  };
  for (const Slow& s : slow) {
    INFO(s.what);
    RawConnection c(server->url());
    c.send(s.bytes);
    bool closed = false;
    const std::string response = c.read_until_close(kWaitSeconds, &closed);
    CHECK(status_of(response) == 408);
    CHECK_THAT(body_of(response), Catch::Contains(s.message));
    CHECK(closed);
  }
  {  // a connection that never sends a byte is closed without an answer
    RawConnection idle(server->url());
    bool closed = false;
    CHECK(idle.read_until_close(kWaitSeconds, &closed).empty());
    CHECK(closed);
  }
  {  // a keep-alive connection idle after its request is closed
    RawConnection c(server->url());
    c.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    bool closed = false;
    const std::string response = c.read_until_close(kWaitSeconds, &closed);
    CHECK(status_of(response) == 200);
    CHECK(closed);
  }
  CHECK(health(server->url()) == "ok");
  CHECK(server->terminate() == 0);
}

TEST_CASE(
    "connections over --max-connections get 503 and the server serves again once they close") {
  auto server = start_serve({"--max-connections", "3"});
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<RawConnection>(server->url()));
  RawConnection extra(server->url());
  bool closed = false;
  const std::string refused = extra.read_until_close(kWaitSeconds, &closed);
  CHECK(status_of(refused) == 503);
  CHECK_THAT(body_of(refused),
             Catch::Contains("limit of 3 connections") && Catch::Contains("--max-connections"));
  CHECK_THAT(refused, Catch::Contains("Retry-After: 1"));
  CHECK(closed);
  held.pop_back();  // one slot frees once the server sees this close
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string response;
  while (status_of(response = http_request(server->url(), "GET", "/health")) == 503 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(body_of(response) == "ok");
  CHECK(server->terminate() == 0);
}

TEST_CASE("out of file descriptors under a low ulimit -n the server keeps accepting") {
  // More connections than the server has descriptors: accept fails with EMFILE while they are
  // held. Before, the accept loop ended there and /health never answered again.
  ServerProcess server({"/bin/sh", "-c", "ulimit -n 64 && exec \"$0\" \"$@\"", INFERGATE_BINARY,
                        "serve", "--model", "tiny", "--port", "0", "--threads", "2",
                        "--max-connections", "1000"});
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 100; ++i) held.push_back(std::make_unique<RawConnection>(server.url()));
  // The whole message, not its start: stderr can arrive in pieces, and a read between them once
  // held "cannot accept a connection (" alone.
  const std::string refusal = "cannot accept a connection (Too many open files";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (server.output().find(refusal) == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_THAT(server.output(), Catch::Contains(refusal));
  RawConnection probe(server.url());  // waits in the listen backlog
  probe.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  held.clear();
  CHECK(body_of(probe.read_until_close(kWaitSeconds)) == "ok");
  CHECK_THAT(server.output(), Catch::Contains("accepting connections again"));
  CHECK(health(server.url()) == "ok");
  CHECK(server.terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
