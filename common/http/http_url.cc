#include "common/http/http_url.h"

#include <cctype>
#include <stdexcept>

namespace infergate {

namespace {

constexpr std::string_view kHttp = "http://";
constexpr std::string_view kHttps = "https://";

std::invalid_argument bad_url(const std::string& url, const std::string& problem) {
  return std::invalid_argument("\"" + url + "\": " + problem);
}

bool all_digits(std::string_view s) {
  for (const char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return !s.empty();
}

uint16_t parse_port(const std::string& url, std::string_view digits) {
  if (!all_digits(digits) || digits.size() > 5 || std::stoi(std::string(digits)) < 1 ||
      std::stoi(std::string(digits)) > 65535) {
    throw bad_url(url, "port \"" + std::string(digits) + "\" is not a number in 1..65535");
  }
  return static_cast<uint16_t>(std::stoi(std::string(digits)));
}

// Splits "HOST[:PORT]" (HOST may be "[v6 address]") into the URL's host and port.
void parse_authority(const std::string& url, std::string_view authority, HttpUrl& out) {
  std::string_view rest;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) throw bad_url(url, "unclosed '[' in the host");
    out.host = std::string(authority.substr(1, close - 1));
    rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') throw bad_url(url, "junk after the IPv6 address");
  } else {
    const size_t colon = authority.find(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) rest = authority.substr(colon);
  }
  if (out.host.empty()) throw bad_url(url, "no host (expected http[s]://HOST[:PORT])");
  if (!rest.empty()) out.port = parse_port(url, rest.substr(1));
}

}  // namespace

std::string HttpUrl::authority() const {
  const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return name + ":" + std::to_string(port);
}

std::string HttpUrl::text() const {
  return std::string(tls ? kHttps : kHttp) + authority() + prefix;
}

HttpUrl parse_http_url(const std::string& url) {
  HttpUrl out;
  out.tls = url.rfind(kHttps, 0) == 0;
  if (!out.tls && url.rfind(kHttp, 0) != 0) {
    throw bad_url(url, "expected http[s]://HOST[:PORT][/PREFIX]");
  }
  if (out.tls) out.port = 443;
  const std::string_view rest = std::string_view(url).substr((out.tls ? kHttps : kHttp).size());
  if (rest.find_first_of("?#") != std::string_view::npos) {
    throw bad_url(url,
                  "a query or fragment is not allowed (expected http[s]://HOST[:PORT][/PREFIX])");
  }
  const size_t slash = rest.find('/');
  parse_authority(url, rest.substr(0, slash), out);
  if (slash != std::string_view::npos) out.prefix = std::string(rest.substr(slash));
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
  const std::string_view v1 = "/v1";
  if (out.prefix.size() >= v1.size() &&
      out.prefix.compare(out.prefix.size() - v1.size(), v1.size(), v1) == 0) {
    throw bad_url(url, "give the server's root, without /v1: requests go to URL/v1/completions");
  }
  return out;
}

}  // namespace infergate
