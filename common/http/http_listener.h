// The accept loop of an HTTP server (`serve`, `router`): binds, then starts a session coroutine
// per connection on a small thread pool. It never gives up: when accept fails (out of file
// descriptors, EMFILE), the connection waits in the kernel's backlog and the loop retries every
// kAcceptRetry until a descriptor is free. Connections beyond max_connections get the refusal
// session (a 503) instead. stop() (any thread, or SIGINT/SIGTERM once stop_on_signals) stops
// accepting, calls the owner's on_stop (which ends in-flight requests), gives sessions a grace
// period to flush, and ends run().
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace infergate {

struct ListenOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0: any free port (HttpListener::port() says which)
  int num_threads = 2;   // threads running sessions, the caller's included
  int max_connections = 4096;
  std::string name = "serve";  // the command, in log lines
};

class HttpListener {
 public:
  using Session = std::function<boost::asio::awaitable<void>(boost::asio::ip::tcp::socket)>;
  struct Handlers {
    Session serve;                  // a connection within max_connections
    Session refuse;                 // one beyond it
    std::function<void()> on_stop;  // ends in-flight work; sessions then flush within the grace
  };

  // Binds at once (throws std::runtime_error naming the address if it cannot). Counts each
  // served connection in `open_connections`; the session gives it back when it ends.
  HttpListener(ListenOptions options, std::atomic<int>& open_connections, Handlers handlers);

  uint16_t port() const { return port_; }
  boost::asio::io_context& io() { return io_; }
  void stop_on_signals();  // before run()
  void run();              // on options.num_threads threads until stop()
  void stop();

 private:
  static constexpr std::chrono::milliseconds kAcceptRetry{50};
  static constexpr std::chrono::milliseconds kStopGrace{200};

  void accept();
  void accepted(boost::asio::ip::tcp::socket socket);
  void accept_failed(const boost::system::error_code& ec);

  ListenOptions options_;
  std::atomic<int>& open_connections_;
  Handlers handlers_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer grace_;
  boost::asio::steady_timer accept_retry_;  // on the acceptor's strand, like accept()
  bool accept_failing_ = false;             // logged once per run of failures
  uint16_t port_ = 0;
};

}  // namespace infergate
