// Prefill/decode disaggregation at the router (docs/disaggregation.md): before a completion goes
// to a decode worker, a prefill worker computes its prompt, asked for one token, whole, with
// `kv_transfer: {"export": true}`; its answer says where the decode worker reads the prompt's
// KV. A prefill worker that fails (connection, timeout, 429/5xx, garbage) is retried on
// another; when none can, the decode worker computes the prompt itself (a fallback, counted).
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "router/routed_request.h"
#include "router/router_context.h"

namespace infergate {

struct PrefillOutcome {
  nlohmann::json source;  // kv_transfer.source for the decode worker; null: none
  std::string fallback;   // why there is none
  double prefill_s = 0;   // from sending to the prefill worker that answered to its answer
  int64_t begin_ns = 0, end_ns = 0;  // that span (common/util/clock.h: one machine's monotonic)
  int64_t kv_bytes = 0;              // what it exported
  int attempts = 0;
};

// `body`: the client's (a JSON object, checked before).
boost::asio::awaitable<PrefillOutcome> run_prefill(std::string_view path, std::string_view body,
                                                   const RoutedRequest& routed, RouterContext& ctx);

// The router's part of the answer's `kv_transfer` record: prefill_s, prefill_attempts,
// prefill_begin_ns and prefill_end_ns (the monotonic clock, comparable between processes of one
// machine: the harness draws them in its trace) and, when the decode worker computed the
// prompt, prefill_fallback (why).
nlohmann::json prefill_record(const PrefillOutcome& outcome);

// What the prefill worker is sent: the request for one token, whole, exporting its KV.
std::string prefill_body(std::string_view body);
// What the decode worker is sent first: the request with kv_transfer.source added.
std::string decode_body(std::string_view body, const nlohmann::json& source);

}  // namespace infergate
