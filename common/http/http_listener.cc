#include "common/http/http_listener.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <csignal>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace infergate {

namespace net = boost::asio;
using net::ip::tcp;

HttpListener::HttpListener(ListenOptions options, std::atomic<int>& open_connections,
                           Handlers handlers)
    : options_(std::move(options)),
      open_connections_(open_connections),
      handlers_(std::move(handlers)),
      io_(options_.num_threads),
      acceptor_(net::make_strand(io_)),
      signals_(io_),
      grace_(io_),
      accept_retry_(acceptor_.get_executor()) {
  boost::system::error_code ec;
  const tcp::endpoint endpoint(net::ip::make_address(options_.host, ec), options_.port);
  if (ec) throw std::runtime_error("--host " + options_.host + ": not an IP address");
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" +
                             std::to_string(options_.port) + ": " + ec.message());
  }
  acceptor_.listen();
  port_ = acceptor_.local_endpoint().port();
  accept();
}

void HttpListener::accept() {
  acceptor_.async_accept(net::make_strand(io_),
                         [this](boost::system::error_code ec, tcp::socket socket) {
                           if (!acceptor_.is_open()) return;  // closed by stop()
                           if (ec) return accept_failed(ec);
                           accepted(std::move(socket));
                           accept();
                         });
}

void HttpListener::accepted(tcp::socket socket) {
  if (accept_failing_) {
    accept_failing_ = false;
    std::cerr << options_.name << ": accepting connections again" << std::endl;
  }
  // Each SSE chunk is small and latency-bound: Nagle would hold it for the client's
  // delayed ACK (~40 ms on the first chunk after the header).
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  const auto executor = socket.get_executor();
  if (open_connections_.fetch_add(1) >= options_.max_connections) {
    --open_connections_;
    net::co_spawn(executor, handlers_.refuse(std::move(socket)), net::detached);
    return;
  }
  net::co_spawn(executor, handlers_.serve(std::move(socket)), net::detached);
}

void HttpListener::accept_failed(const boost::system::error_code& ec) {
  if (ec == net::error::connection_aborted) return accept();  // that client gave up
  if (!accept_failing_) {
    accept_failing_ = true;
    std::cerr << options_.name << ": cannot accept a connection (" << ec.message() << ", "
              << open_connections_ << " open); retrying every " << kAcceptRetry.count() << " ms"
              << std::endl;
  }
  accept_retry_.expires_after(kAcceptRetry);
  accept_retry_.async_wait([this](boost::system::error_code wait_ec) {
    if (!wait_ec && acceptor_.is_open()) accept();
  });
}

void HttpListener::stop_on_signals() {
  signals_.add(SIGINT);
  signals_.add(SIGTERM);
  signals_.async_wait([this](boost::system::error_code ec, int) {
    if (!ec) stop();
  });
}

void HttpListener::run() {
  std::vector<std::thread> threads;
  for (int i = 1; i < options_.num_threads; ++i) threads.emplace_back([this] { io_.run(); });
  io_.run();
  for (std::thread& t : threads) t.join();
}

void HttpListener::stop() {
  net::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
  });
  net::post(io_, [this] {
    boost::system::error_code ignored;
    signals_.cancel(ignored);
  });
  if (handlers_.on_stop) handlers_.on_stop();
  // Idle keep-alive connections would otherwise hold run() for ever.
  net::post(io_, [this] {
    grace_.expires_after(kStopGrace);
    grace_.async_wait([this](boost::system::error_code) { io_.stop(); });
  });
}

}  // namespace infergate
