// The server's process on this host (bench/telemetry/listening_process.h): loopback hosts, the
// pid behind a listening port (our own, on a socket opened here), its memory and CPU ticks; and
// the client-versus-server TTFT rule (bench/metrics/ttft_cross_check.h).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "bench/metrics/ttft_cross_check.h"
#include "bench/telemetry/listening_process.h"

namespace infergate {
namespace {

TEST_CASE("loopback hosts") {
  for (const char* host : {"localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"}) {
    INFO(host);
    CHECK(is_loopback_host(host));
  }
  for (const char* host : {"10.0.0.1", "example.com", "128.0.0.1", "::2", ""}) {
    INFO(host);
    CHECK_FALSE(is_loopback_host(host));
  }
}

TEST_CASE("the process listening on a port is found: our own, by the port of a socket we open") {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  REQUIRE(listen(fd, 1) == 0);
  socklen_t length = sizeof(address);
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const uint16_t port = ntohs(address.sin_port);

  const PidLookup found = find_listening_pid(port);
  INFO(found.detail);
  REQUIRE(found.pid);
  CHECK(*found.pid == getpid());
  CHECK(found.detail == "the process listening on TCP port " + std::to_string(port));
  close(fd);
  const PidLookup gone = find_listening_pid(port);
  CHECK_FALSE(gone.pid);
  CHECK(gone.detail.find("no process listens on TCP port") == 0);

  const auto me = read_process(getpid());
  REQUIRE(me);
  CHECK(me->rss_bytes > 0);
  CHECK(me->cpu_ticks >= 0);
  CHECK(clock_ticks_per_second() > 0);
  CHECK_FALSE(read_process(0));
}

TEST_CASE("client versus server TTFT: the bound is 3 x RTT P95 + 1 ms, the difference signed") {
  const TtftCrossCheck ok = cross_check_ttft(12.0, 14, 11.2, 14, 0.2);
  CHECK(ok.bound_ms == Approx(1.6));
  CHECK(ok.difference_ms == Approx(0.8));
  CHECK_FALSE(ok.disagreement);
  CHECK_THAT(ok.reason, Catch::Contains("+0.800 ms is within the bound"));

  const TtftCrossCheck far = cross_check_ttft(10.0, 14, 12.0, 14, 0.2);
  CHECK(far.difference_ms == Approx(-2.0));
  CHECK(far.disagreement);
  CHECK_THAT(far.reason, Catch::Contains("-2.000 ms exceeds the bound"));

  const TtftCrossCheck counts = cross_check_ttft(12.0, 14, 12.0, 20, 0.2);
  CHECK(counts.disagreement);
  CHECK_THAT(counts.reason, Catch::Contains("other requests than the client measured"));
}

}  // namespace
}  // namespace infergate
