#include "router/router_server.h"

#include "router/health_checker.h"
#include "router/router_session.h"

namespace infergate {

RouterServer::RouterServer(RouterOptions options, ReplicaSet& replicas, ReplicaSet* prefill)
    : context_{options, replicas, prefill, {}, {}, {}, {}},
      listener_(options.listen, context_.open_connections,
                {[this](boost::asio::ip::tcp::socket s) {
                   return serve_router_session(std::move(s), context_);
                 },
                 [this](boost::asio::ip::tcp::socket s) {
                   return refuse_router_connection(std::move(s), context_);
                 },
                 {}}) {
  start_health_checks(listener_.io(), context_);
}

}  // namespace infergate
