#include "server/http_server.h"

#include <ctime>

#include "server/http_session.h"

namespace infergate {

namespace {

ListenOptions listen_options(const ServerOptions& o) {
  return {o.host, o.port, o.num_threads, o.max_connections, "serve"};
}

}  // namespace

HttpServer::HttpServer(ServerOptions options, EngineService& service, ServedModel model)
    : context_{service, std::move(model), options, int64_t(std::time(nullptr)), {}, {}, {}, {}},
      listener_(
          listen_options(options), context_.open_connections,
          {[this](boost::asio::ip::tcp::socket s) { return serve_session(std::move(s), context_); },
           [this](boost::asio::ip::tcp::socket s) {
             return refuse_connection(std::move(s), context_);
           },
           // Every in-flight request ends (reason "abort"); its session writes that out.
           [this] { context_.service.stop(); }}) {}

}  // namespace infergate
