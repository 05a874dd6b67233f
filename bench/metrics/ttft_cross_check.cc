#include "bench/metrics/ttft_cross_check.h"

#include <cmath>
#include <cstdio>

namespace infergate {

namespace {

std::string ms(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f ms", v);
  return text;
}

}  // namespace

TtftCrossCheck cross_check_ttft(double client_mean_ms, int64_t client_count, double server_mean_ms,
                                int64_t server_count, double rtt_p95_ms) {
  TtftCrossCheck c;
  c.client_mean_ms = client_mean_ms;
  c.client_count = client_count;
  c.server_mean_ms = server_mean_ms;
  c.server_count = server_count;
  c.difference_ms = client_mean_ms - server_mean_ms;
  c.bound_ms = kCrossCheckRttFactor * rtt_p95_ms + kCrossCheckSlackMs;
  const std::string means = "client mean TTFT from send " + ms(client_mean_ms) + " over " +
                            std::to_string(client_count) + " requests, server " +
                            ms(server_mean_ms) + " over " + std::to_string(server_count);
  if (client_count != server_count) {
    c.disagreement = true;
    c.reason = means + ": the server counted other requests than the client measured";
    return c;
  }
  c.disagreement = std::fabs(c.difference_ms) > c.bound_ms;
  c.reason = means + ": the difference " + (c.difference_ms >= 0 ? "+" : "") + ms(c.difference_ms) +
             (c.disagreement ? " exceeds" : " is within") +
             " the bound 3 x RTT P95 + 1 ms = " + ms(c.bound_ms);
  return c;
}

}  // namespace infergate
