// What every HTTP session shares: the engine, the served model and the server's options.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/http/request_reader.h"
#include "common/kv_transfer/ucx_kv_transport.h"
#include "engine/service/engine_service.h"
#include "server/openai/completion_request.h"
#include "server/server_metrics.h"

namespace infergate {

// The request limits (max_body_bytes, the timeouts, header sizes) come from HttpReadLimits.
struct ServerOptions : HttpReadLimits {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0: any free port (HttpServer::port() says which)
  std::string api_key;   // empty: no authentication
  int num_threads = 2;   // HTTP threads; the engine has its own
  // Completions in flight (queued in the engine or streaming) beyond which new ones get 429:
  // an overloaded server answers at once instead of letting clients hang.
  int max_pending_requests = 4096;
  // Connections beyond this many open ones are answered 503 and closed at once, so a client
  // cannot starve the server of file descriptors (the accept loop also survives EMFILE).
  int max_connections = 4096;
  // Prefill/decode disaggregation (docs/disaggregation.md): "colocated" (neither), "prefill"
  // (exports prompt KV) or "decode" (reads it). The last two start a UCX transport.
  std::string role = "colocated";
  // /metrics names' prefix: "infergate" (infergate:num_requests_running, ...) or another, e.g.
  // "vllm", so tools that know only vLLM's names read this server (docs/server.md).
  std::string metrics_prefix = "infergate";
  KvTransportOptions kv_transport;
  double kv_read_timeout_s = 5;  // a decode worker's read; beyond, it computes the prompt
  // Shared by a router's prefill and decode workers (common/kv_transfer/kv_transfer_secret.h):
  // prefill workers sign their KV sources with it, decode workers read only sources it
  // verifies. Empty: a prefill worker exports nothing, a decode worker trusts no source.
  std::string kv_transfer_secret;
};

struct ServerContext {
  EngineService& service;
  ServedModel model;
  ServerOptions options;
  int64_t created = 0;  // unix seconds the server started ("created" of the model)
  std::atomic<uint64_t> next_request = 0;
  std::atomic<int> pending_requests = 0;
  std::atomic<int> open_connections = 0;
  ServerMetrics metrics;
  UcxKvTransport* kv_transport = nullptr;  // with --role prefill or decode
};

}  // namespace infergate
