#include "server/kv_handoff.h"

#include <algorithm>
#include <stdexcept>

#include "common/kv_transfer/kv_digests.h"
#include "common/kv_transfer/kv_source.h"
#include "common/kv_transfer/kv_source_check.h"
#include "common/kv_transfer/kv_source_signature.h"
#include "common/openai/openai_error.h"
#include "common/util/clock.h"

namespace infergate {

nlohmann::json kv_read_record_json(const KvReadRecord& r) {
  nlohmann::json j = {{"cached_blocks", r.cached_blocks},
                      {"blocks_read", r.blocks_read},
                      {"bytes", r.bytes},
                      {"read_s", r.read_s},
                      {"before_admit_s", r.before_admit_s},
                      {"imported_blocks", r.imported_blocks},
                      {"read_begin_ns", r.read_begin_ns},
                      {"read_end_ns", r.read_end_ns}};
  j["fallback"] = r.fallback.empty() ? nlohmann::json() : nlohmann::json(r.fallback);
  return j;
}

void check_kv_transfer_role(const CompletionRequest& request, const ServerContext& ctx) {
  const std::string& role = ctx.options.role;
  if (request.kv_export && role != "prefill") {
    throw ApiError(400,
                   "'kv_transfer.export' needs a server started with --role prefill (this "
                   "one's is " +
                       role + ")",
                   "kv_transfer");
  }
  if (!request.kv_source.is_null()) {
    if (role != "decode") {
      throw ApiError(400,
                     "'kv_transfer.source' needs a server started with --role decode (this "
                     "one's is " +
                         role + ")",
                     "kv_transfer");
    }
    try {
      kv_source_from_json(request.kv_source, "kv_transfer.source");
    } catch (const std::invalid_argument& e) {
      throw ApiError(400, e.what(), "kv_transfer");
    }
  }
}

void submit_after_kv_read(ServerContext& ctx, const CompletionRequest& request, RequestId id,
                          std::vector<int32_t> prompt, SamplingParams sampling, EventSink sink,
                          std::shared_ptr<KvReadRecord> record, int64_t arrival_ns) {
  const KvSource source = kv_source_from_json(request.kv_source, "kv_transfer.source");
  const Engine& engine = ctx.service.engine();
  const int prompt_blocks =
      std::min(source.num_blocks, int(request.prompt.size()) / engine.config().block_size);
  const auto admit = [&ctx, id, prompt, sampling, sink, record,
                      arrival_ns](std::shared_ptr<KvBlocks> blocks) {
    record->before_admit_s = double(now_ns() - arrival_ns) * 1e-9;
    ctx.metrics.kv_read(!record->fallback.empty(), record->bytes, record->read_s);
    ctx.service.submit(id, prompt, sampling, sink, KvHandoff{false, std::move(blocks)});
  };
  // Everything UCX would be given is checked first: an untrusted source is never read.
  record->fallback =
      kv_source_refusal(source, {ctx.options.kv_transfer_secret, engine.kv_block_nbytes(),
                                 engine.config().block_size, prompt});
  if (!record->fallback.empty()) {
    admit(nullptr);
    return;
  }
  std::vector<int32_t> prefix(request.prompt.begin(), request.prompt.end());
  UcxKvTransport& transport = *ctx.kv_transport;
  const double timeout_s = ctx.options.kv_read_timeout_s;
  // On the engine thread: how much is cached here decides what to read.
  ctx.service.count_cached_prefix(std::move(prefix), [=, &transport](int cached) {
    record->cached_blocks = std::min(cached, prompt_blocks);
    const int first = record->cached_blocks, count = prompt_blocks - first;
    const int64_t read_begin_ns = now_ns();
    transport.fetch(source, first, count, timeout_s, [=](KvFetchResult r) {
      record->read_s = r.seconds;
      record->read_begin_ns = read_begin_ns;
      record->read_end_ns = now_ns();
      // A read that is not the exported bytes is dropped, never cached.
      record->fallback = r.ok ? kv_read_refusal(source, first, count, r.bytes) : r.error;
      if (!record->fallback.empty()) {
        admit(nullptr);
        return;
      }
      record->blocks_read = count;
      record->bytes = int64_t(r.bytes.size());
      auto blocks = std::make_shared<KvBlocks>();
      blocks->block_nbytes = source.block_nbytes;
      blocks->first_block = first;
      blocks->num_blocks = count;
      blocks->bytes = std::move(r.bytes);
      admit(std::move(blocks));
    });
  });
}

nlohmann::json expose_prompt_kv(ServerContext& ctx, const std::shared_ptr<KvBlocks>& blocks,
                                std::span<const int32_t> prompt) {
  if (!blocks) return {{"error", "the request ended before its prompt's KV could be exported"}};
  const std::string& secret = ctx.options.kv_transfer_secret;
  if (secret.empty()) {
    return {{"error",
             "this prefill worker has no KV transfer secret (--kv-transfer-secret-file or "
             "INFERGATE_KV_TRANSFER_SECRET), so no decode worker would trust its export"}};
  }
  const int block_tokens = ctx.service.engine().config().block_size;
  const size_t covered = size_t(blocks->num_blocks) * size_t(block_tokens);
  if (blocks->first_block != 0 || covered > prompt.size()) {
    return {{"error", "the exported blocks are not the prompt's first"}};
  }
  const int64_t bytes = int64_t(blocks->bytes.size());
  const int num_blocks = blocks->num_blocks;
  std::string checksums = kv_block_checksums(blocks->bytes, blocks->block_nbytes);
  std::optional<KvSource> source =
      ctx.kv_transport->expose(std::move(blocks->bytes), blocks->block_nbytes, num_blocks);
  if (!source) {
    return {{"error", "no room in this prefill worker's export arena (--kv-max-exported-mb)"}};
  }
  source->block_tokens = block_tokens;
  source->tokens_digest = kv_tokens_digest(prompt.first(covered), block_tokens);
  source->block_checksums = std::move(checksums);
  source->signature = kv_source_signature(*source, secret);
  return {{"source", kv_source_to_json(*source)}, {"blocks", num_blocks}, {"bytes", bytes}};
}

}  // namespace infergate
