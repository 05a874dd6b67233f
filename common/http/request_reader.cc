#include "common/http/request_reader.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cstdio>
#include <string>
#include <string_view>

#include "common/http/read_deadline.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using Parser = http::request_parser<http::string_body>;

constexpr size_t kFirstReadBytes = 4096;

HttpResponse refusal(int status, const std::string& message) {
  HttpRequest head;
  head.keep_alive(false);
  return error_response(head, ApiError(status, message));
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g s", s);
  return text;
}

// What a malformed request did wrong, beyond Beast's one-line message.
std::string parse_error_hint(const beast::error_code& ec) {
  if (ec == http::error::bad_content_length) {
    return "Content-Length must be one decimal byte count below 2^64, repeated only with the "
           "same value, and not sent with Transfer-Encoding: chunked";
  }
  if (ec == http::error::bad_transfer_encoding) {
    return "Transfer-Encoding may name chunked once, and not alongside Content-Length";
  }
  if (ec == http::error::bad_chunk || ec == http::error::bad_chunk_extension) {
    return "each chunk of a chunked body starts with a line holding its size in hexadecimal";
  }
  return "the request does not follow HTTP/1.1 (RFC 9112)";
}

// A header over max_header_bytes: 414 when the request line alone is too long, else 431.
HttpResponse oversized_header(const Parser& parser, const beast::flat_buffer& buffer,
                              const HttpReadLimits& o) {
  size_t line = parser.get().target().size();
  if (line == 0) {  // the request line was never complete: it is still all in the buffer
    const std::string_view data(static_cast<const char*>(buffer.data().data()), buffer.size());
    line = std::min(data.find("\r\n"), data.size());
  }
  if (line > o.max_target_bytes) {
    return refusal(
        414, "the request line is longer than " + std::to_string(o.max_target_bytes) + " bytes");
  }
  return refusal(
      431, "the request header is larger than " + std::to_string(o.max_header_bytes) + " bytes");
}

// The answer to a failed read, or none when there is nobody to answer (closed, reset).
std::optional<HttpResponse> refusal_for(const beast::error_code& ec, const Parser& parser,
                                        const beast::flat_buffer& buffer, const HttpReadLimits& o) {
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) return std::nullopt;
  if (ec == http::error::body_limit) {
    return refusal(
        413, "the request body is larger than " + std::to_string(o.max_body_bytes) + " bytes");
  }
  if (ec == http::error::header_limit) return oversized_header(parser, buffer, o);
  if (ec.category() != beast::error_code(http::error::bad_target).category()) return std::nullopt;
  return refusal(400, "malformed HTTP request (" + ec.message() + "): " + parse_error_hint(ec));
}

}  // namespace

net::awaitable<ReadOutcome> read_request(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                                         const HttpReadLimits& o) {
  const auto token = [](beast::error_code& ec) {
    return net::redirect_error(net::use_awaitable, ec);
  };
  stream.expires_never();  // the last write's timeout; reads run under `deadline` instead
  ReadDeadline deadline(stream);
  beast::error_code ec;
  if (buffer.size() == 0) {  // idle: between requests, or before the first
    deadline.arm(o.idle_timeout_s);
    const size_t n = co_await stream.async_read_some(buffer.prepare(kFirstReadBytes), token(ec));
    buffer.commit(n);
    if (ec) co_return ReadOutcome{};
  }
  Parser parser;
  parser.header_limit(static_cast<uint32_t>(o.max_header_bytes));
  parser.body_limit(o.max_body_bytes);
  deadline.arm(o.header_timeout_s);
  co_await http::async_read_header(stream, buffer, parser, token(ec));
  if (ec && deadline.expired()) {
    co_return ReadOutcome{{},
                          refusal(408, "the request header did not arrive within " +
                                           seconds(o.header_timeout_s) + " (--header-timeout-s)")};
  }
  if (ec) co_return ReadOutcome{{}, refusal_for(ec, parser, buffer, o)};
  if (parser.get().target().size() > o.max_target_bytes) {
    co_return ReadOutcome{{}, oversized_header(parser, buffer, o)};
  }
  if (!parser.is_done()) {
    deadline.arm(o.body_timeout_s);
    co_await http::async_read(stream, buffer, parser, token(ec));
    if (ec && deadline.expired()) {
      co_return ReadOutcome{{},
                            refusal(408, "the request body did not arrive within " +
                                             seconds(o.body_timeout_s) + " (--body-timeout-s)")};
    }
    if (ec) co_return ReadOutcome{{}, refusal_for(ec, parser, buffer, o)};
  }
  co_return ReadOutcome{parser.release(), std::nullopt};
}

}  // namespace infergate
