#include "bench/results/recorded_request_of.h"

namespace infergate {

namespace {

KvTransferRow kv_transfer_row(const KvTransferRecord& r) {
  return {r.prefill_ms, r.prefill_attempts, r.prefill_fallback, r.cached_blocks, r.blocks_read,
          r.bytes,      r.read_ms,          r.before_admit_ms,  r.read_fallback};
}

}  // namespace

RecordedRequest recorded_request_of(const RequestRecord& r, int64_t origin_ns) {
  const auto ms = [&](int64_t t) {
    return t == 0 ? std::nullopt : std::optional<double>(double(t - origin_ns) * 1e-6);
  };
  RecordedRequest out;
  out.index = r.index;
  out.warmup = r.warmup;
  out.status = request_status_name(r.status);
  out.error = r.error;
  out.scheduled_ms = ms(r.scheduled_ns);
  out.sent_ms = ms(r.sent_ns);
  out.first_token_ms = ms(r.first_token_ns);
  out.finished_ms = ms(r.finished_ns);
  out.token_times_ms.reserve(r.token_times_ns.size());
  for (int64_t t : r.token_times_ns) out.token_times_ms.push_back(double(t - origin_ns) * 1e-6);
  out.input_tokens = r.input_tokens;
  out.output_tokens = r.output_tokens;
  out.cached_tokens = r.cached_tokens;
  out.preemptions = r.preemptions;
  if (r.kv_transfer) out.kv_transfer = kv_transfer_row(*r.kv_transfer);
  out.output_problem = r.output_problem;
  out.reasoning_tokens = r.reasoning_tokens;
  if (r.session >= 0) {
    out.session = r.session;
    out.turn = r.turn;
  }
  return out;
}

}  // namespace infergate
