// `infergate serve`'s HTTP front: an HttpListener whose sessions answer from the engine service.
// stop() (any thread, or SIGINT/SIGTERM once stop_on_signals) stops accepting, aborts every
// in-flight request through the engine service, lets sessions flush, and ends run().
#pragma once

#include <cstdint>
#include <memory>

#include "common/http/http_listener.h"
#include "server/server_context.h"

namespace infergate {

class HttpServer {
 public:
  // Binds at once (throws std::runtime_error naming the address if it cannot).
  HttpServer(ServerOptions options, EngineService& service, ServedModel model);

  uint16_t port() const { return listener_.port(); }       // the bound port (useful with port 0)
  void stop_on_signals() { listener_.stop_on_signals(); }  // before run()
  // Serves on options.num_threads threads (the caller's included) until stop().
  void run() { listener_.run(); }
  void stop() { listener_.stop(); }

 private:
  std::unique_ptr<UcxKvTransport> kv_transport_;  // with a prefill or decode role
  ServerContext context_;
  HttpListener listener_;
};

}  // namespace infergate
