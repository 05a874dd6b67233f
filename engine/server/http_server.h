// The accept loop: binds, then serves each connection as a session on a small thread pool.
// stop() (any thread, or SIGINT/SIGTERM once stop_on_signals) stops accepting, aborts every
// in-flight request through the engine service, lets sessions flush, and ends run().
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>

#include "engine/server/server_context.h"

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
  void accept();

  boost::asio::io_context io_;
  ServerContext context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer grace_;
  uint16_t port_ = 0;
};

}  // namespace infergate
