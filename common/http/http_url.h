// The address of an OpenAI-compatible server, as a workload's `target.url` gives it:
// http://HOST[:PORT][/PREFIX]. The harness appends the API path (/v1/completions, /v1/models) to
// it, as `vllm bench serve --base-url` does. Plain HTTP only: benchmarks run on a trusted
// network, and TLS would add its own cost to every latency measured.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace infergate {

struct HttpUrl {
  std::string host;    // a name or an address (an IPv6 address without its brackets)
  uint16_t port = 80;  // 80 when the URL has none
  std::string prefix;  // "" or a path such as "/proxy" (no trailing slash)

  // The Host header's value: "HOST:PORT" (IPv6 addresses in brackets).
  std::string authority() const;
  // prefix + path, e.g. "/v1/completions".
  std::string target(std::string_view path) const { return prefix + std::string(path); }
  // "http://" + authority() + prefix: the URL in its normal form, for messages.
  std::string text() const;
};

// Throws std::invalid_argument naming what is wrong: another scheme (https included), no host,
// a bad port, a query or fragment, or a path ending in /v1 (the URL is the server's root; the
// harness adds /v1/...).
HttpUrl parse_http_url(const std::string& url);

}  // namespace infergate
