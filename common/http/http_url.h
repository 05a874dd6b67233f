// The address of an OpenAI-compatible server, as a workload's `target.url` gives it:
// http[s]://HOST[:PORT][/PREFIX]. The harness appends the API path (/v1/completions, /v1/models)
// to it, as `vllm bench serve --base-url` does. https:// is for the openai target (endpoints
// behind TLS gateways); the router and its replicas speak plain HTTP to each other.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace infergate {

struct HttpUrl {
  std::string host;    // a name or an address (an IPv6 address without its brackets)
  uint16_t port = 80;  // 80 (https: 443) when the URL has none
  bool tls = false;    // https://
  std::string prefix;  // "" or a path such as "/proxy" (no trailing slash)

  // The Host header's value: "HOST:PORT" (IPv6 addresses in brackets).
  std::string authority() const;
  // prefix + path, e.g. "/v1/completions".
  std::string target(std::string_view path) const { return prefix + std::string(path); }
  // "http[s]://" + authority() + prefix: the URL in its normal form, for messages.
  std::string text() const;
};

// Throws std::invalid_argument naming what is wrong: another scheme, no host,
// a bad port, a query or fragment, or a path ending in /v1 (the URL is the server's root; the
// harness adds /v1/...).
HttpUrl parse_http_url(const std::string& url);

}  // namespace infergate
