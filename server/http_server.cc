#include "server/http_server.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <csignal>
#include <ctime>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "server/http_session.h"

namespace infergate {

namespace net = boost::asio;
using net::ip::tcp;

HttpServer::HttpServer(ServerOptions options, EngineService& service, ServedModel model)
    : io_(options.num_threads),
      context_{service, std::move(model), options, int64_t(std::time(nullptr)), {}, {}, {}, {}},
      acceptor_(net::make_strand(io_)),
      signals_(io_),
      grace_(io_),
      accept_retry_(acceptor_.get_executor()) {
  boost::system::error_code ec;
  const tcp::endpoint endpoint(net::ip::make_address(options.host, ec), options.port);
  if (ec) throw std::runtime_error("--host " + options.host + ": not an IP address");
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + options.host + ":" +
                             std::to_string(options.port) + ": " + ec.message());
  }
  acceptor_.listen();
  port_ = acceptor_.local_endpoint().port();
  accept();
}

void HttpServer::accept() {
  acceptor_.async_accept(net::make_strand(io_),
                         [this](boost::system::error_code ec, tcp::socket socket) {
                           if (!acceptor_.is_open()) return;  // closed by stop()
                           if (ec) return accept_failed(ec);
                           accepted(std::move(socket));
                           accept();
                         });
}

void HttpServer::accepted(tcp::socket socket) {
  if (accept_failing_) {
    accept_failing_ = false;
    std::cerr << "serve: accepting connections again" << std::endl;
  }
  // Each SSE chunk is small and latency-bound: Nagle would hold it for the client's
  // delayed ACK (~40 ms on the first chunk after the header).
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  const auto executor = socket.get_executor();
  if (context_.open_connections.fetch_add(1) >= context_.options.max_connections) {
    --context_.open_connections;
    net::co_spawn(executor, refuse_connection(std::move(socket), context_), net::detached);
    return;
  }
  net::co_spawn(executor, serve_session(std::move(socket), context_), net::detached);
}

void HttpServer::accept_failed(const boost::system::error_code& ec) {
  if (ec == net::error::connection_aborted) return accept();  // that client gave up
  if (!accept_failing_) {
    accept_failing_ = true;
    std::cerr << "serve: cannot accept a connection (" << ec.message() << ", "
              << context_.open_connections << " open); retrying every " << kAcceptRetry.count()
              << " ms" << std::endl;
  }
  accept_retry_.expires_after(kAcceptRetry);
  accept_retry_.async_wait([this](boost::system::error_code wait_ec) {
    if (!wait_ec && acceptor_.is_open()) accept();
  });
}

void HttpServer::stop_on_signals() {
  signals_.add(SIGINT);
  signals_.add(SIGTERM);
  signals_.async_wait([this](boost::system::error_code ec, int) {
    if (!ec) stop();
  });
}

void HttpServer::run() {
  std::vector<std::thread> threads;
  for (int i = 1; i < context_.options.num_threads; ++i)
    threads.emplace_back([this] { io_.run(); });
  io_.run();
  for (std::thread& t : threads) t.join();
}

void HttpServer::stop() {
  net::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
  });
  net::post(io_, [this] {
    boost::system::error_code ignored;
    signals_.cancel(ignored);
  });
  // Every in-flight request ends (reason "abort"); its session writes that out, then io_ stops
  // (idle keep-alive connections would otherwise hold run() forever).
  context_.service.stop();
  net::post(io_, [this] {
    grace_.expires_after(std::chrono::milliseconds(200));
    grace_.async_wait([this](boost::system::error_code) { io_.stop(); });
  });
}

}  // namespace infergate
