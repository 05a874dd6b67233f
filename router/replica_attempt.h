// One attempt to answer a client's request at one replica, relaying the answer as it arrives.
// Until the attempt's first event goes to the client, any failure can be retried elsewhere: no
// connection, no answer within --first-byte-timeout-s, 429 or 5xx, a body that is not JSON, a
// stream whose first event is not (or, resuming a stream, any answer but a stream). After it, a
// replica failing mid-stream is kBroken: the session migrates the stream to another replica
// (relayed_stream.h; docs/router.md, "Failures").
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <string>

#include "common/http/http_connection.h"
#include "common/http/http_responses.h"
#include "router/policy/replica_set.h"
#include "router/relayed_stream.h"
#include "router/router_context.h"

namespace infergate {

enum class AttemptOutcome {
  kAnswered,   // the client has the replica's whole answer (any status)
  kRetryable,  // nothing reached the client; try another replica
  kBroken,     // the replica failed mid-stream, before the answer's end: migrate it
  kClientGone  // the client stopped reading or disconnected
};

struct AttemptResult {
  AttemptOutcome outcome = AttemptOutcome::kAnswered;
  int status = 0;      // what the client got (kAnswered)
  std::string detail;  // why it failed, for the client's 502 and the log
  bool replica_ok = false;
};

// A connection to a replica within --connect-timeout-s (TCP_NODELAY); false with `ec` if not.
boost::asio::awaitable<bool> connect_to_replica(HttpConnection& c, const HttpUrl& url,
                                                const RouterContext& ctx,
                                                boost::beast::error_code& ec);

// Sends `body` (the client's, or a resume of it) to the leased replica of ctx.replicas on req's
// method and path. A replica that fails its health check while silent is left at once
// (replica_watch.h).
boost::asio::awaitable<AttemptResult> attempt_at_replica(
    boost::beast::tcp_stream& client, const HttpRequest& req, const std::string& body,
    const ReplicaLease& lease, bool stream, RelayedStream& relayed, RouterContext& ctx);

// Ends a started stream that no replica could finish: an error event, then the stream's end.
boost::asio::awaitable<void> end_stream_with_error(boost::beast::tcp_stream& client,
                                                   const std::string& detail,
                                                   const RouterContext& ctx);

}  // namespace infergate
