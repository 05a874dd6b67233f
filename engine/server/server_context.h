// What every HTTP session shares: the engine, the served model and the server's options.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/server/completion_request.h"
#include "engine/server/engine_service.h"
#include "engine/server/server_metrics.h"

namespace infergate {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;                     // 0: any free port (HttpServer::port() says which)
  std::string api_key;                      // empty: no authentication
  int num_threads = 2;                      // HTTP threads; the engine has its own
  size_t max_body_bytes = size_t(1) << 20;  // larger bodies get 413
  // Completions in flight (queued in the engine or streaming) beyond which new ones get 429:
  // an overloaded server answers at once instead of letting clients hang.
  int max_pending_requests = 4096;
};

struct ServerContext {
  EngineService& service;
  ServedModel model;
  ServerOptions options;
  int64_t created = 0;  // unix seconds the server started ("created" of the model)
  std::atomic<uint64_t> next_request = 0;
  std::atomic<int> pending_requests = 0;
  ServerMetrics metrics;
};

}  // namespace infergate
