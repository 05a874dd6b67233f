#include "bench/http/http_get_json.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <stdexcept>

#include "bench/http/stream_chunk.h"
#include "common/http/http_connection.h"
#include "common/http/http_request_text.h"
#include "common/http/http_response_reader.h"

namespace infergate {

namespace {

namespace net = boost::asio;

struct GetResult {
  std::string failure;  // transport failure, "" if none
  HttpResponseRead response;
  std::string body;
  bool too_long = false;  // the body passed max_body_bytes
};

// `request` by value: the coroutine runs after the caller's full-expression has ended.
net::awaitable<void> get(net::io_context& io, const HttpUrl& url, net::ssl::context* tls,
                         std::string request, std::chrono::steady_clock::time_point deadline,
                         size_t max_body_bytes, GetResult& out) {
  boost::beast::error_code ec;
  net::ip::tcp::resolver resolver(io);
  const auto endpoints = resolver.resolve(url.host, std::to_string(url.port), ec);
  if (ec) {
    out.failure = "cannot resolve " + url.host + ": " + ec.message();
    co_return;
  }
  HttpConnection c(io.get_executor(), tls);
  c.stream.expires_at(deadline);
  co_await c.connect(endpoints, url.host, ec);
  if (!ec) {
    co_await c.with_stream([&](auto& stream) {
      return net::async_write(stream, net::buffer(request),
                              net::redirect_error(net::use_awaitable, ec));
    });
  }
  if (ec) {
    out.failure = c.describe(ec);
    co_return;
  }
  out.response = co_await read_http_response(c, [&](std::string_view piece, int64_t) {
    if (out.too_long) return;
    if (piece.size() > max_body_bytes - out.body.size()) {
      out.too_long = true;
      c.stream.close();  // the next read fails: nothing more is read
      return;
    }
    out.body += piece;
  });
  if (out.too_long) {
    out.failure = "the body exceeds the limit of " + std::to_string(max_body_bytes) + " bytes";
  } else if (out.response.ec) {
    out.failure = out.response.ec.message();
  }
}

}  // namespace

std::string http_get_text(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                          double timeout_s, size_t max_body_bytes) {
  net::io_context io(1);
  GetResult result;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::microseconds(int64_t(timeout_s * 1e6));
  net::co_spawn(
      io,
      get(io, url, access.tls.get(), http_get(url, path, access), deadline, max_body_bytes, result),
      net::detached);
  io.run();
  const std::string what = "GET " + url.text() + std::string(path);
  if (!result.failure.empty()) throw std::runtime_error(what + ": " + result.failure);
  const HttpResponseRead& r = result.response;
  if (r.status != 200) {
    throw std::runtime_error(what + ": HTTP " + std::to_string(r.status) + ": " +
                             error_message_of(r.error_body));
  }
  return result.body;
}

nlohmann::json http_get_json(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                             double timeout_s) {
  const std::string body = http_get_text(url, path, access, timeout_s);
  nlohmann::json doc = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    throw std::runtime_error("GET " + url.text() + std::string(path) + ": the answer is not JSON");
  }
  return doc;
}

}  // namespace infergate
