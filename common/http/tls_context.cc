#include "common/http/tls_context.h"

#include <openssl/err.h>

#include <boost/asio/ssl/context.hpp>
#include <stdexcept>

namespace infergate {

namespace ssl = boost::asio::ssl;

std::shared_ptr<ssl::context> make_tls_context(const TlsSettings& settings) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  context->set_options(ssl::context::no_sslv2 | ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                       ssl::context::no_tlsv1_1);
  if (!settings.verify) {
    context->set_verify_mode(ssl::verify_none);
    return context;
  }
  context->set_verify_mode(ssl::verify_peer);
  boost::system::error_code ec;
  if (settings.ca_file.empty()) {
    context->set_default_verify_paths(ec);
    if (ec) throw std::runtime_error("cannot load the system's CA certificates: " + ec.message());
    return context;
  }
  context->load_verify_file(settings.ca_file, ec);
  if (ec) {
    throw std::runtime_error("CA file \"" + settings.ca_file +
                             "\": cannot load CA certificates from it (" + ec.message() +
                             "; expected PEM certificates)");
  }
  return context;
}

}  // namespace infergate
