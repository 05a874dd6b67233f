#include "bench/programs/http_echo/echo_server.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <thread>
#include <variant>
#include <vector>

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using net::ip::tcp;
using nlohmann::json;

// A streamed answer to plan: what the request asked for.
struct StreamPlan {
  bool chat = false;
  int max_tokens = 16;
  int prompt_tokens = 0;
  bool include_usage = false;
  std::string id;
};

struct Refusal {
  int status;
  std::string message;
};

std::string status_line(int status) {
  switch (status) {
    case 200:
      return "200 OK";
    case 400:
      return "400 Bad Request";
    case 401:
      return "401 Unauthorized";
    case 404:
      return "404 Not Found";
    default:
      return std::to_string(status) + " Error";
  }
}

// How answers are framed: HTTP/1.1 chunks on a kept-alive connection, or HTTP/1.0's body
// delimited by the connection's close.
struct Framing {
  bool http10 = false;
  std::string version() const { return http10 ? "HTTP/1.0 " : "HTTP/1.1 "; }
  std::string chunk(const std::string& data) const;
  std::string last_chunk() const { return http10 ? "" : "0\r\n\r\n"; }
};

std::string whole_response(int status, const std::string& type, const std::string& body,
                           bool keep_alive, const Framing& f = {}) {
  return f.version() + status_line(status) + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
         (keep_alive ? "" : "Connection: close\r\n") + "\r\n" + body;
}

std::string error_response(const Refusal& r, bool keep_alive, const Framing& f) {
  const json body = {{"error",
                      {{"message", r.message},
                       {"type", r.status == 404 ? "NotFoundError" : "BadRequestError"},
                       {"param", nullptr},
                       {"code", r.status}}}};
  return whole_response(r.status, "application/json", body.dump(), keep_alive, f);
}

std::string Framing::chunk(const std::string& data) const {
  if (http10) return data;
  char size[24];
  std::snprintf(size, sizeof(size), "%zx\r\n", data.size());
  return size + data + "\r\n";
}

int prompt_length(const json& j, bool chat) {
  if (!chat) {
    const json& p = j.value("prompt", json());
    return p.is_array() ? int(p.size()) : p.is_string() ? int(p.get<std::string>().size()) : 0;
  }
  int bytes = 0;
  for (const json& m : j.value("messages", json::array())) {
    if (m.is_object() && m.value("content", json()).is_string()) {
      bytes += int(m["content"].get<std::string>().size());
    }
  }
  return bytes;
}

// Reads the request body, or says why the fixture refuses it (as an OpenAI server would).
std::variant<StreamPlan, Refusal> plan_stream(const std::string& body, bool chat,
                                              const EchoServerOptions& o) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Refusal{400, "the body is not a JSON object"};
  if (j.value("model", o.model) != o.model) {
    return Refusal{404, "The model `" + j.value("model", std::string()) + "` does not exist."};
  }
  if (!j.value("stream", false)) return Refusal{400, "infergate_http_echo only streams"};
  StreamPlan p;
  p.chat = chat;
  const char* length_key =
      chat && j.contains("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
  const json max_tokens = j.value(length_key, json(16));
  if (!max_tokens.is_number_integer() || max_tokens.get<int64_t>() < 1 ||
      max_tokens.get<int64_t>() > 1'000'000) {
    return Refusal{400, std::string(length_key) + " must be an integer in 1..1000000"};
  }
  p.max_tokens = max_tokens.get<int>();
  p.prompt_tokens = prompt_length(j, chat);
  p.include_usage = j.value("stream_options", json::object()).value("include_usage", false);
  return p;
}

std::string sse(const json& data) { return "data: " + data.dump() + "\n\n"; }

class StreamWriter {
 public:
  StreamWriter(const StreamPlan& plan, const EchoServerOptions& o) : plan_(plan), o_(o) {}

  // The event carrying tokens [first, first + n).
  std::string tokens_event(int first, int n) const {
    json choice = {{"index", 0}, {"finish_reason", nullptr}};
    std::string thinking, text;
    for (int t = first; t < first + n; ++t) (in_field(t) ? thinking : text) += token_text(t);
    if (plan_.chat) {
      choice["delta"] = json::object();
      if (!text.empty()) choice["delta"]["content"] = text;
      if (!thinking.empty()) choice["delta"]["reasoning_content"] = thinking;
      if (first == 0) choice["delta"]["role"] = "assistant";
    } else {
      choice["text"] = text;
    }
    if (o_.token_ids) {
      json ids = json::array();
      const int range = std::max(1, o_.vocab_size - 3);
      for (int t = first; t < first + n; ++t) ids.push_back(3 + t % range);
      choice["token_ids"] = ids;
    }
    if (first + n == plan_.max_tokens) choice["finish_reason"] = "length";
    json e = envelope();
    e["choices"] = json::array({choice});
    return sse(e);
  }

  // Usage (when asked for) and [DONE].
  std::string tail() const {
    std::string out;
    if (plan_.include_usage) {
      json e = envelope();
      e["choices"] = json::array();
      e["usage"] = {{"prompt_tokens", plan_.prompt_tokens},
                    {"completion_tokens", plan_.max_tokens},
                    {"total_tokens", plan_.prompt_tokens + plan_.max_tokens}};
      if (thinking() > 0) {
        e["usage"]["completion_tokens_details"] = {{"reasoning_tokens", thinking()}};
      }
      out += sse(e);
    }
    return out + "data: [DONE]\n\n";
  }

 private:
  json envelope() const {
    return {{"id", plan_.id},
            {"object", plan_.chat ? "chat.completion.chunk" : "text_completion"},
            {"created", 0},
            {"model", o_.model}};
  }

  int thinking() const { return std::min(o_.reasoning_tokens, plan_.max_tokens); }
  // Token t's thinking goes in delta.reasoning_content (chat, "field"), else in the text.
  bool in_field(int t) const { return t < thinking() && plan_.chat && o_.reasoning_as == "field"; }
  // "x" per token; in the text, the thinking's first and last tokens carry the tags.
  std::string token_text(int t) const {
    if (t >= thinking() || in_field(t)) return "x";
    return std::string(t == 0 ? "<think>" : "") + "x" + (t == thinking() - 1 ? "</think>" : "");
  }

  const StreamPlan& plan_;
  const EchoServerOptions& o_;
};

std::string stream_head(bool keep_alive, const Framing& f) {
  if (f.http10) {  // HTTP/1.0: the body ends with the connection
    return "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n";
  }
  return std::string("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n") +
         "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n" +
         (keep_alive ? "" : "Connection: close\r\n") + "\r\n";
}

net::awaitable<void> write_text(beast::tcp_stream& s, const std::string& text,
                                beast::error_code& ec) {
  co_await net::async_write(s, net::buffer(text), net::redirect_error(net::use_awaitable, ec));
}

// Without a delay the whole stream is one write; with one, a chunk per delay x its tokens.
net::awaitable<void> write_stream(beast::tcp_stream& s, const StreamPlan& plan,
                                  const EchoServerOptions& o, bool keep_alive,
                                  beast::error_code& ec) {
  const StreamWriter w(plan, o);
  const Framing f{o.http10};
  const int step = std::max(1, o.tokens_per_chunk);
  if (o.token_delay_us <= 0) {
    std::string events;
    for (int t = 0; t < plan.max_tokens; t += step) {
      events += w.tokens_event(t, std::min(step, plan.max_tokens - t));
    }
    co_await write_text(s, stream_head(keep_alive, f) + f.chunk(events + w.tail()) + f.last_chunk(),
                        ec);
    co_return;
  }
  co_await write_text(s, stream_head(keep_alive, f), ec);
  net::steady_timer timer(s.get_executor());
  for (int t = 0; t < plan.max_tokens && !ec; t += step) {
    const int n = std::min(step, plan.max_tokens - t);
    timer.expires_after(std::chrono::microseconds(o.token_delay_us * n));
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ec));
    if (!ec) co_await write_text(s, f.chunk(w.tokens_event(t, n)), ec);
  }
  if (!ec) co_await write_text(s, f.chunk(w.tail()) + f.last_chunk(), ec);
}

json models_json(const EchoServerOptions& o) {
  json model = {{"id", o.model}, {"object", "model"}, {"owned_by", "infergate_http_echo"}};
  if (o.vocab_size > 0) model["vocab_size"] = o.vocab_size;
  return {{"object", "list"}, {"data", json::array({model})}};
}

net::awaitable<void> session(tcp::socket socket, const EchoServerOptions& o,
                             std::atomic<uint64_t>& next_id) {
  beast::tcp_stream stream(std::move(socket));
  beast::error_code ec;
  stream.socket().set_option(tcp::no_delay(true), ec);
  beast::flat_buffer buffer;
  const Framing f{o.http10};
  for (int answered = 0;; ++answered) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(16 << 20);
    if (o.idle_close_ms > 0 && answered > 0) {  // idle from here until the next request
      stream.expires_after(std::chrono::milliseconds(o.idle_close_ms));
    }
    co_await http::async_read(stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
    stream.expires_never();
    if (ec) break;
    const http::request<http::string_body>& req = parser.get();
    // Closing after this answer without saying so is what the keep-alive policies test.
    const bool keep = req.keep_alive() && !o.http10;
    const bool last =
        !keep || (o.close_after_requests > 0 && answered + 1 >= o.close_after_requests);
    const std::string target(req.target());
    const bool chat = target == "/v1/chat/completions";
    const auto given = o.required_header.empty() ? req.end() : req.find(o.required_header);
    if (!o.required_header.empty() && (given == req.end() || given->value() != o.required_value)) {
      const std::string refused =
          error_response({401, "missing or wrong " + o.required_header + " header"}, keep, f);
      co_await write_text(stream, refused, ec);
    } else if (target == "/health") {
      co_await write_text(stream, whole_response(200, "text/plain", "ok", keep, f), ec);
    } else if (target == "/v1/models") {
      co_await write_text(
          stream, whole_response(200, "application/json", models_json(o).dump(), keep, f), ec);
    } else if ((chat || target == "/v1/completions") && req.method() == http::verb::post) {
      const auto plan = plan_stream(req.body(), chat, o);
      if (const Refusal* r = std::get_if<Refusal>(&plan)) {
        co_await write_text(stream, error_response(*r, keep, f), ec);
      } else {
        StreamPlan p = std::get<StreamPlan>(plan);
        p.id = "echo-" + std::to_string(next_id++);
        co_await write_stream(stream, p, o, keep, ec);
      }
    } else {
      // Built before the co_await: GCC 12 destroys a braced temporary inside a co_await
      // expression twice (a double free on every 404).
      const std::string not_found = error_response({404, "no route for " + target}, keep, f);
      co_await write_text(stream, not_found, ec);
    }
    if (ec || last) break;
  }
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
}

}  // namespace

struct EchoServer::State {
  explicit State(EchoServerOptions o)
      : options(std::move(o)), io(options.num_threads), acceptor(io), signals(io) {}

  void accept() {
    acceptor.async_accept(net::make_strand(io), [this](beast::error_code ec, tcp::socket s) {
      if (ec == net::error::operation_aborted) return;  // stopping
      if (ec) {
        // Out of file descriptors (or another passing error) under an overload: accept again
        // shortly. Returning would stop accepting for good, and every later client would see
        // its connect time out against a server that looks alive.
        retry.expires_after(std::chrono::milliseconds(10));
        retry.async_wait([this](beast::error_code) { accept(); });
        return;
      }
      const auto executor = s.get_executor();
      net::co_spawn(executor, session(std::move(s), options, next_id), net::detached);
      accept();
    });
  }

  EchoServerOptions options;
  net::io_context io;
  tcp::acceptor acceptor;
  net::steady_timer retry{io};
  net::signal_set signals;
  std::atomic<uint64_t> next_id{0};
};

EchoServer::EchoServer(EchoServerOptions options)
    : state_(std::make_unique<State>(std::move(options))) {
  State& s = *state_;
  beast::error_code ec;
  const tcp::endpoint endpoint(net::ip::make_address(s.options.host, ec), s.options.port);
  if (ec) throw std::runtime_error("--host " + s.options.host + ": not an IP address");
  s.acceptor.open(endpoint.protocol());
  s.acceptor.set_option(net::socket_base::reuse_address(true));
  s.acceptor.bind(endpoint, ec);
  if (ec) throw std::runtime_error("cannot listen on " + s.options.host + ": " + ec.message());
  s.acceptor.listen(net::socket_base::max_listen_connections);
  s.accept();
  s.signals.add(SIGINT);
  s.signals.add(SIGTERM);
  s.signals.async_wait([this](beast::error_code ec2, int) {
    if (!ec2) stop();
  });
}

EchoServer::~EchoServer() = default;

uint16_t EchoServer::port() const { return state_->acceptor.local_endpoint().port(); }

void EchoServer::run() {
  std::vector<std::thread> threads;
  for (int i = 1; i < state_->options.num_threads; ++i) {
    threads.emplace_back([this] { state_->io.run(); });
  }
  state_->io.run();
  for (std::thread& t : threads) t.join();
}

void EchoServer::stop() { state_->io.stop(); }

}  // namespace infergate
