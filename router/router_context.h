// What every router session shares: the options, the replicas, the metrics and the wait for a
// replica with room.
#pragma once

#include <atomic>
#include <string>

#include "common/http/http_listener.h"
#include "common/http/request_reader.h"
#include "router/policy/replica_set.h"
#include "router/router_metrics.h"
#include "router/slot_waiters.h"

namespace infergate {

// The limits on requests from clients (body size, timeouts) come from HttpReadLimits.
struct RouterOptions : HttpReadLimits {
  ListenOptions listen{"127.0.0.1", 8000, 2, 4096, "router"};
  std::string api_key;           // what clients must send (empty: none)
  std::string upstream_api_key;  // what the router sends the replicas (empty: none)
  ReplicaSetSettings replicas;
  int prefix_chunk_bytes = 64;  // text prompts are hashed in chunks of this many bytes
  int token_block_size = 16;    // token prompts in blocks of this many (the replicas' KV block)
  // When every healthy replica has max_outstanding in flight, up to max_queued requests wait
  // up to queue_timeout_s for room; beyond, 429 with Retry-After.
  int max_queued = 1024;
  double queue_timeout_s = 30;
  double connect_timeout_s = 2;       // to a replica
  double first_byte_timeout_s = 120;  // a replica's answer must start within this
  double stall_timeout_s = 120;       // and no gap in it may be longer
  int max_attempts = 3;               // replicas tried for a request that has not started
  double health_interval_s = 1;
  double health_timeout_s = 2;
};

struct RouterContext {
  RouterOptions options;
  ReplicaSet& replicas;  // the decode workers when `prefill` is set
  ReplicaSet* prefill;   // prefill/decode disaggregation: the prefill workers (else null)
  RouterMetrics metrics;
  SlotWaiters waiters;
  SlotWaiters prefill_waiters;  // for a prefill worker with room
  std::atomic<int> open_connections = 0;
};

}  // namespace infergate
