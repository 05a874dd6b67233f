// The TLS side of an https:// target (docs/workload-schema.md, "HTTPS and headers"): one OpenSSL
// client context per target, shared by its connections. Verification is on unless the workload
// turns it off: the server's certificate must chain to the CA file given (else the system's
// CAs) and name the URL's host.
#pragma once

#include <memory>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace infergate {

struct TlsSettings {
  bool verify = true;   // check the chain and the host name
  std::string ca_file;  // PEM CA certificates to trust; "" : the system's
};

// Throws std::runtime_error naming the CA file when it cannot be read or holds no certificate.
std::shared_ptr<boost::asio::ssl::context> make_tls_context(const TlsSettings& settings);

}  // namespace infergate
