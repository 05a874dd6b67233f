#include "router/health_checker.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>

#include "common/http/http_request_text.h"
#include "common/http/http_response_reader.h"
#include "common/util/clock.h"

namespace infergate {

namespace net = boost::asio;
using net::ip::tcp;

net::awaitable<bool> replica_answers_health(const HttpUrl& url, double timeout_s) {
  HttpConnection c(co_await net::this_coro::executor);
  c.stream.expires_after(seconds_to_duration(timeout_s));
  boost::system::error_code ec;
  auto token = net::redirect_error(net::use_awaitable, ec);
  tcp::resolver resolver(co_await net::this_coro::executor);
  const auto endpoints = co_await resolver.async_resolve(url.host, std::to_string(url.port), token);
  if (ec) co_return false;
  co_await c.stream.async_connect(endpoints, token);
  if (ec) co_return false;
  const std::string request = http_get(url, "/health", {});
  co_await net::async_write(c.stream, net::buffer(request), token);
  if (ec) co_return false;
  const HttpResponseRead r = co_await read_http_response(c, [](std::string_view, int64_t) {});
  co_return !r.ec && r.status == 200;
}

namespace {

net::awaitable<void> check_replica_health(RouterContext& ctx, ReplicaSet& set, int replica) {
  net::steady_timer timer(co_await net::this_coro::executor);
  for (;;) {
    const auto next =
        std::chrono::steady_clock::now() + seconds_to_duration(ctx.options.health_interval_s);
    const HttpUrl url = set.url(replica);
    const bool ok = co_await replica_answers_health(url, ctx.options.health_timeout_s);
    set.health_checked(replica, url, ok);
    timer.expires_at(next);
    boost::system::error_code ignored;
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ignored));
  }
}

}  // namespace

void start_health_checks(net::io_context& io, RouterContext& ctx) {
  for (ReplicaSet* set : {&ctx.replicas, ctx.prefill}) {
    for (size_t i = 0; set && i < set->size(); ++i) {
      net::co_spawn(net::make_strand(io), check_replica_health(ctx, *set, int(i)), net::detached);
    }
  }
}

}  // namespace infergate
