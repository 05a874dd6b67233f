#include "common/http/http_responses.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include "common/util/clock.h"

namespace infergate {

namespace net = boost::asio;
namespace http = boost::beast::http;

HttpResponse json_response(const HttpRequest& req, http::status status,
                           const nlohmann::json& body) {
  HttpResponse res(status, req.version());
  res.set(http::field::content_type, "application/json");
  res.keep_alive(req.keep_alive());
  // Invalid UTF-8 in a message (an echoed client string) is replaced, never thrown on.
  res.body() = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  res.prepare_payload();
  return res;
}

HttpResponse error_response(const HttpRequest& req, const ApiError& e) {
  HttpResponse res = json_response(req, http::status(e.status()), e.to_json());
  if (e.status() == 401) res.set(http::field::www_authenticate, "Bearer");
  if (e.status() == 429 || e.status() == 503) res.set(http::field::retry_after, "1");
  return res;
}

HttpResponse text_response(const HttpRequest& req, const std::string& content_type,
                           std::string body) {
  HttpResponse res(http::status::ok, req.version());
  res.set(http::field::content_type, content_type);
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

void arm_write_timeout(boost::beast::tcp_stream& stream, double timeout_s) {
  stream.expires_after(seconds_to_duration(timeout_s));
}

net::awaitable<void> send(boost::beast::tcp_stream& stream, HttpResponse res,
                          boost::beast::error_code& ec, double timeout_s) {
  arm_write_timeout(stream, timeout_s);
  co_await http::async_write(stream, res, net::redirect_error(net::use_awaitable, ec));
}

net::awaitable<void> send_event_stream_header(boost::beast::tcp_stream& stream,
                                              const HttpRequest& req, boost::beast::error_code& ec,
                                              double timeout_s) {
  http::response<http::empty_body> head(http::status::ok, req.version());
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  head.keep_alive(req.keep_alive());
  head.chunked(true);
  http::response_serializer<http::empty_body> serializer(head);
  arm_write_timeout(stream, timeout_s);
  co_await http::async_write_header(stream, serializer,
                                    net::redirect_error(net::use_awaitable, ec));
}

net::awaitable<void> linger_close(boost::beast::tcp_stream& stream, double seconds) {
  boost::beast::error_code ec;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
  arm_write_timeout(stream, seconds);  // the stream's one timeout: reads too
  char sink[4096];
  while (!ec) {
    co_await stream.async_read_some(net::buffer(sink), net::redirect_error(net::use_awaitable, ec));
  }
}

}  // namespace infergate
