#include "tests/http/stream_client.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/field.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "common/http/http_connection.h"
#include "common/http/http_request_text.h"
#include "common/http/http_response_stream.h"
#include "common/http/http_url.h"
#include "common/http/sse_parser.h"

namespace infergate::test {

namespace {

namespace net = boost::asio;
using nlohmann::json;

void take_event(const std::string& data, StreamAnswer& a) {
  if (data == "[DONE]") {
    a.done = true;
    return;
  }
  const json e = json::parse(data, nullptr, false);
  if (e.is_discarded()) {
    a.error += "not JSON: " + data.substr(0, 200) + "; ";
    return;
  }
  if (e.contains("error")) a.error += e["error"].value("message", "an error event") + "; ";
  if (e.contains("id")) a.chunk_ids.push_back(e["id"].get<std::string>());
  if (e.contains("usage") && e["usage"].is_object()) {
    a.usage_completion_tokens = e["usage"].value("completion_tokens", -1);
  }
  if (!e.contains("choices") || e["choices"].empty()) return;
  const json& c = e["choices"][0];
  for (const json& t : c.value("token_ids", json::array())) a.ids.push_back(t.get<int32_t>());
  if (c.contains("text")) a.text += c["text"].get<std::string>();
  if (c.contains("delta") && c["delta"].contains("content")) {
    a.text += c["delta"]["content"].get<std::string>();
  }
  if (c.contains("finish_reason") && c["finish_reason"].is_string()) {
    a.finish_reason = c["finish_reason"].get<std::string>();
  }
}

net::awaitable<void> one_stream(const HttpUrl& url, const std::string& path,
                                const std::string& body, StreamAnswer& a, size_t index,
                                std::atomic<int64_t>& events,
                                const std::function<void(size_t, int64_t)>& on_event) {
  HttpConnection c(co_await net::this_coro::executor);
  boost::system::error_code ec;
  auto token = net::redirect_error(net::use_awaitable, ec);
  net::ip::tcp::resolver resolver(co_await net::this_coro::executor);
  const auto endpoints = co_await resolver.async_resolve(url.host, std::to_string(url.port), token);
  if (!ec) co_await c.connect(endpoints, url.host, ec);
  const std::string request = http_post_json(url, path, {}, body);
  if (!ec) co_await net::async_write(c.stream, net::buffer(request), token);
  if (ec) {
    a.error += "cannot send: " + ec.message();
    co_return;
  }
  HttpResponseStream response(c);
  if (!co_await response.read_header()) {
    a.error += "no answer: " + response.ec().message();
    co_return;
  }
  a.status = response.status();
  SseParser sse;
  std::vector<std::string> parsed;
  std::string other;
  for (;;) {
    const std::string_view piece = co_await response.read_piece();
    if (piece.empty()) break;
    if (a.status != 200) {
      other.append(piece);
      continue;
    }
    parsed.clear();
    sse.feed(piece, parsed);
    for (const std::string& data : parsed) {
      take_event(data, a);
      const int64_t n = ++events;
      if (on_event) on_event(index, n);
    }
  }
  if (response.ec()) a.error += "broke off: " + response.ec().message() + "; ";
  if (a.status != 200) a.error += "status " + std::to_string(a.status) + ": " + other;
  if (!response.done()) a.done = false;
}

}  // namespace

std::vector<StreamAnswer> stream_all(const std::string& url_text, const std::string& path,
                                     const std::vector<std::string>& bodies, int concurrency,
                                     double timeout_s,
                                     const std::function<void(size_t, int64_t)>& on_event) {
  const HttpUrl url = parse_http_url(url_text);
  std::vector<StreamAnswer> answers(bodies.size());
  net::io_context io;
  std::atomic<int64_t> events = 0;
  size_t next = 0;
  // Each finished stream starts the next one, so at most `concurrency` are in flight.
  std::function<void()> start_next = [&] {
    if (next >= bodies.size()) return;
    const size_t i = next++;
    net::co_spawn(io, one_stream(url, path, bodies[i], answers[i], i, events, on_event),
                  [&, i](std::exception_ptr e) {
                    if (e) answers[i].error += "exception; ";
                    start_next();
                  });
  };
  for (int k = 0; k < concurrency; ++k) start_next();
  io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(timeout_s)));
  for (StreamAnswer& a : answers) {
    if (!a.done && a.error.empty()) a.error = "did not finish within the test's time";
  }
  return answers;
}

}  // namespace infergate::test
