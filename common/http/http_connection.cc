#include "common/http/http_connection.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "common/util/clock.h"

namespace infergate {

namespace net = boost::asio;

namespace {

// OpenSSL checks the certificate names `host` (its own check, so a mismatch is reported as
// "hostname mismatch"); a name also goes out as SNI, which a gateway serving several names
// picks the certificate by (an address may not, RFC 6066).
void name_the_peer(SSL* ssl, const std::string& host) {
  boost::system::error_code not_an_address;
  net::ip::make_address(host, not_an_address);
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  if (!not_an_address) {
    X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    return;
  }
  SSL_set_tlsext_host_name(ssl, host.c_str());
  SSL_set1_host(ssl, host.c_str());
}

}  // namespace

HttpConnection::HttpConnection(const net::any_io_executor& executor, net::ssl::context* tls_context)
    : stream(executor) {
  if (tls_context) tls.emplace(stream, *tls_context);
}

net::awaitable<void> HttpConnection::connect(const net::ip::tcp::resolver::results_type& endpoints,
                                             const std::string& host,
                                             boost::beast::error_code& ec) {
  co_await stream.async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return;
  boost::system::error_code ignored;
  stream.socket().set_option(net::ip::tcp::no_delay(true), ignored);
  if (!tls) co_return;
  name_the_peer(tls->native_handle(), host);
  const int64_t start = now_ns();
  co_await tls->async_handshake(net::ssl::stream_base::client,
                                net::redirect_error(net::use_awaitable, ec));
  tls_handshake_ns = now_ns() - start;
}

std::string HttpConnection::describe(const boost::beast::error_code& ec) {
  std::string text = ec.message();
  if (!tls || ec.category() != net::error::get_ssl_category()) return text;
  const long verify = SSL_get_verify_result(tls->native_handle());
  if (verify != X509_V_OK) text += ": " + std::string(X509_verify_cert_error_string(verify));
  return "TLS handshake failed: " + text;
}

}  // namespace infergate
