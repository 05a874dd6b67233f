// The accept loop: binds, then serves each connection as a session on a small thread pool.
// It never gives up: when accept fails (out of file descriptors, EMFILE), the connection waits
// in the kernel's backlog and the loop retries every kAcceptRetry until a descriptor is free.
// Connections beyond options.max_connections get 503 and are closed.
// stop() (any thread, or SIGINT/SIGTERM once stop_on_signals) stops accepting, aborts every
// in-flight request through the engine service, lets sessions flush, and ends run().
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>

#include "server/server_context.h"

namespace infergate {

class HttpServer {
 public:
  // Binds at once (throws std::runtime_error naming the address if it cannot).
  HttpServer(ServerOptions options, EngineService& service, ServedModel model);

  uint16_t port() const { return port_; }  // the bound port (useful with port 0)
  void stop_on_signals();                  // before run()
  // Serves on options.num_threads threads (the caller's included) until stop().
  void run();
  void stop();

 private:
  static constexpr std::chrono::milliseconds kAcceptRetry{50};

  void accept();
  void accepted(boost::asio::ip::tcp::socket socket);
  void accept_failed(const boost::system::error_code& ec);

  boost::asio::io_context io_;
  ServerContext context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer grace_;
  boost::asio::steady_timer accept_retry_;  // on the acceptor's strand, like accept()
  bool accept_failing_ = false;             // logged once per run of failures
  uint16_t port_ = 0;
};

}  // namespace infergate
