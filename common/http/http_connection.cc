#include "common/http/http_connection.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace infergate {

namespace net = boost::asio;

net::awaitable<void> HttpConnection::connect(const net::ip::tcp::resolver::results_type& endpoints,
                                             boost::beast::error_code& ec) {
  co_await stream.async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return;
  boost::system::error_code ignored;
  stream.socket().set_option(net::ip::tcp::no_delay(true), ignored);
}

}  // namespace infergate
