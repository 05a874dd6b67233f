// `infergate router`'s HTTP front: an HttpListener whose sessions forward to the replicas, with
// the health checks running on the same threads. stop() (any thread, or SIGINT/SIGTERM once
// stop_on_signals) stops accepting, lets sessions flush, and ends run().
#pragma once

#include <cstdint>

#include "common/http/http_listener.h"
#include "router/router_context.h"

namespace infergate {

class RouterServer {
 public:
  // Binds at once (throws std::runtime_error naming the address if it cannot). With `prefill`,
  // requests are disaggregated: prefilled there, decoded at `replicas`.
  RouterServer(RouterOptions options, ReplicaSet& replicas, ReplicaSet* prefill = nullptr);

  uint16_t port() const { return listener_.port(); }
  void stop_on_signals() { listener_.stop_on_signals(); }
  void run() { listener_.run(); }
  void stop() { listener_.stop(); }
  RouterContext& context() { return context_; }

 private:
  RouterContext context_;
  HttpListener listener_;
};

}  // namespace infergate
