// The response shapes every route uses: JSON bodies, OpenAI-format errors, and a coroutine
// that writes one response.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "common/openai/openai_error.h"

namespace infergate {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

HttpResponse json_response(const HttpRequest& req, boost::beast::http::status status,
                           const nlohmann::json& body);
// The error as OpenAI's {"error": {...}}; 401 adds WWW-Authenticate, 429 and 503 Retry-After.
HttpResponse error_response(const HttpRequest& req, const ApiError& e);
HttpResponse text_response(const HttpRequest& req, const std::string& content_type,
                           std::string body);

// The next write fails (and the stream closes) if the client has not taken it within
// `timeout_s`: a client that stops reading cannot hold its connection for ever.
void arm_write_timeout(boost::beast::tcp_stream& stream, double timeout_s);

// Writes `res` (kept alive in the coroutine frame until written) within `timeout_s`; failures
// land in `ec`.
boost::asio::awaitable<void> send(boost::beast::tcp_stream& stream, HttpResponse res,
                                  boost::beast::error_code& ec, double timeout_s);

// The header of a 200 Server-Sent Events answer in chunked encoding; its events follow as
// chunks (http::make_chunk), then http::make_chunk_last().
boost::asio::awaitable<void> send_event_stream_header(boost::beast::tcp_stream& stream,
                                                      const HttpRequest& req,
                                                      boost::beast::error_code& ec,
                                                      double timeout_s);

// After a refusal, with the client's request unread: closing now would reset the connection,
// and the reset can destroy the answer before the client reads it. So: end our side, read and
// drop what the client still sends until it closes, for `seconds` at most.
constexpr double kLingerSeconds = 2;
boost::asio::awaitable<void> linger_close(boost::beast::tcp_stream& stream, double seconds);

}  // namespace infergate
