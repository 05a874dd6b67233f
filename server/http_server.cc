#include "server/http_server.h"

#include <ctime>

#include "server/http_session.h"

namespace infergate {

namespace {

ListenOptions listen_options(const ServerOptions& o) {
  return {o.host, o.port, o.num_threads, o.max_connections, "serve"};
}

std::unique_ptr<UcxKvTransport> kv_transport(const ServerOptions& o) {
  if (o.role == "colocated") return nullptr;
  return std::make_unique<UcxKvTransport>(o.kv_transport);
}

}  // namespace

HttpServer::HttpServer(ServerOptions options, EngineService& service, ServedModel model)
    : kv_transport_(kv_transport(options)),
      context_{service, std::move(model),   options, int64_t(std::time(nullptr)), {}, {}, {},
               {},      kv_transport_.get()},
      listener_(
          listen_options(options), context_.open_connections,
          {[this](boost::asio::ip::tcp::socket s) { return serve_session(std::move(s), context_); },
           [this](boost::asio::ip::tcp::socket s) {
             return refuse_connection(std::move(s), context_);
           },
           // Every in-flight request ends (reason "abort"); its session writes that out.
           [this] { context_.service.stop(); }}) {}

}  // namespace infergate
