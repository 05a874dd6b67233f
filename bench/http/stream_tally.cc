#include "bench/http/stream_tally.h"

#include <algorithm>

namespace infergate {

void StreamTally::add(int64_t t_ns, const StreamChunk& chunk) {
  if (chunk.token_ids >= 0) saw_token_ids_ = true;
  ids_.insert(ids_.end(), chunk.ids.begin(), chunk.ids.end());
  if (chunk.token_ids > 0 || chunk.has_text) {
    arrivals_.push_back({t_ns, chunk.token_ids, chunk.has_text});
  }
  if (chunk.usage) usage_ = chunk.usage;
  if (chunk.kv_transfer) kv_transfer_ = chunk.kv_transfer;
  if (!chunk.finish_reason.empty()) finish_reason_ = chunk.finish_reason;
}

TallyResult StreamTally::finish(int64_t end_ns) const {
  TallyResult r;
  r.counted_by_ids = saw_token_ids_;
  r.token_ids = ids_;
  r.kv_transfer = kv_transfer_;
  if (usage_) {
    r.usage_tokens = usage_->completion_tokens;
    r.prompt_tokens = usage_->prompt_tokens;
  }
  if (saw_token_ids_) {
    by_token_ids(r, end_ns);
  } else {
    by_text_chunks(r, end_ns);
  }
  return r;
}

// Each token id is a token, stamped with its chunk's time. The usage, when given, is the count:
// tokens it reports beyond those streamed are stamped at the end, streamed ones beyond it are
// dropped from the end, and either way the disagreement is flagged.
void StreamTally::by_token_ids(TallyResult& r, int64_t end_ns) const {
  for (const Arrival& a : arrivals_) {
    if (a.token_ids > 0)
      r.token_times_ns.insert(r.token_times_ns.end(), size_t(a.token_ids), a.t_ns);
  }
  r.streamed_tokens = int(r.token_times_ns.size());
  if (!r.usage_tokens) return;
  const int n = std::max(0, *r.usage_tokens);
  r.mismatch = n != r.streamed_tokens;
  r.token_times_ns.resize(size_t(n), end_ns);
}

// Without token ids a chunk's token count is unknown: the usage's count is spread evenly over
// the chunks with text (chunk j of k gets floor((j+1)n/k) - floor(jn/k)); without usage, each
// chunk with text counts as one token.
void StreamTally::by_text_chunks(TallyResult& r, int64_t end_ns) const {
  const int64_t k = int64_t(arrivals_.size());
  r.streamed_tokens = int(k);
  if (!r.usage_tokens) {
    for (const Arrival& a : arrivals_) r.token_times_ns.push_back(a.t_ns);
    return;
  }
  const int64_t n = std::max(0, *r.usage_tokens);
  r.mismatch = n < k;
  if (k == 0) {
    r.token_times_ns.assign(size_t(n), end_ns);
    return;
  }
  for (int64_t j = 0; j < k; ++j) {
    const int64_t share = (j + 1) * n / k - j * n / k;
    r.token_times_ns.insert(r.token_times_ns.end(), size_t(share), arrivals_[size_t(j)].t_ns);
  }
}

}  // namespace infergate
