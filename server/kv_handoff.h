// The server's part in prefill/decode disaggregation (docs/disaggregation.md). A prefill worker
// (--role prefill) answers a request with `kv_transfer: {"export": true}` whole, and exposes the
// KV of its prompt's full blocks for a decode worker to read. A decode worker (--role decode)
// given `kv_transfer: {"source": ...}` reads the blocks its prefix cache lacks, adopts them and
// then admits the request, which computes only the prompt's tail; when the read fails or times
// out it admits the request anyway and computes the whole prompt (counted as a fallback).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "server/server_context.h"

namespace infergate {

// One decode-side read, reported in the answer's `kv_transfer` (docs/server.md).
struct KvReadRecord {
  int cached_blocks = 0;  // held here already: not read
  int blocks_read = 0;
  int64_t bytes = 0;
  double read_s = 0;                           // the transport's read
  int64_t read_begin_ns = 0, read_end_ns = 0;  // that span (common/util/clock.h)
  double before_admit_s = 0;  // from the request's arrival to its admission (the read's cost)
  int imported_blocks = 0;    // adopted by the engine (fewer if some were lost meanwhile)
  std::string fallback;       // why the prompt was computed here instead (empty: it was not)
};
nlohmann::json kv_read_record_json(const KvReadRecord& record);

// Throws ApiError(400) when this server's role does not take the request's kv_transfer, or its
// source is malformed.
void check_kv_transfer_role(const CompletionRequest& request, const ServerContext& ctx);

// Decode side: submits the request once the blocks it lacks have been read from `source` (the
// request's kv_source), or without them when they cannot be: when the source is not signed
// with this worker's secret, names blocks outside its arena or of another prompt
// (kv_source_check.h; UCX never sees such a source), or the read fails or does not match the
// signed checksums. `record` is filled before the request's first event.
void submit_after_kv_read(ServerContext& ctx, const CompletionRequest& request, RequestId id,
                          std::vector<int32_t> prompt, SamplingParams sampling, EventSink sink,
                          std::shared_ptr<KvReadRecord> record, int64_t arrival_ns);

// Prefill side: exposes the exported prompt KV of `prompt` (the tokens submitted) bound to its
// token ids and bytes and signed with the secret; the answer's `kv_transfer` (the source for the
// decode worker, or why there is none).
nlohmann::json expose_prompt_kv(ServerContext& ctx, const std::shared_ptr<KvBlocks>& blocks,
                                std::span<const int32_t> prompt);

}  // namespace infergate
