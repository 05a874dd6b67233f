// How a client reaches a server beyond its URL: the API key, the workload's own headers (auth
// gateways), and the TLS context of an https:// URL. The router's and the tests' plain requests
// give only a key, or nothing.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace boost::asio::ssl {
class context;
}

namespace infergate {

struct HttpAccess {
  HttpAccess() = default;
  explicit HttpAccess(std::string key) : api_key(std::move(key)) {}

  std::string api_key;  // non-empty: "Authorization: Bearer KEY"
  // Sent with every request, in this order; names and values checked when the workload is read.
  std::vector<std::pair<std::string, std::string>> headers;
  // Set exactly when the URL is https:// (common/http/tls_context.h).
  std::shared_ptr<boost::asio::ssl::context> tls;
};

}  // namespace infergate
