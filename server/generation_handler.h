// POST /v1/completions and /v1/chat/completions once parsed: admission (429 beyond the
// configured number of pending requests), the engine request, and the answer, whole or
// streamed as Server-Sent Events.
#pragma once

#include "common/http/http_responses.h"
#include "server/openai/completion_request.h"
#include "server/server_context.h"

namespace infergate {

// Returns false when the connection cannot be reused (the client went away mid-stream).
// `arrival_ns`: when the request was read (common/util/clock.h).
boost::asio::awaitable<bool> serve_generation(boost::beast::tcp_stream& stream,
                                              const HttpRequest& req,
                                              const CompletionRequest& request,
                                              ServerContext& context, int64_t arrival_ns);

}  // namespace infergate
