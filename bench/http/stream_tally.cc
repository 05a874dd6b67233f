#include "bench/http/stream_tally.h"

#include <algorithm>

namespace infergate {

void StreamTally::add(int64_t t_ns, const StreamChunk& chunk) {
  if (chunk.token_ids >= 0) saw_token_ids_ = true;
  ids_.insert(ids_.end(), chunk.ids.begin(), chunk.ids.end());
  if (!chunk.reasoning.empty()) saw_reasoning_field_ = true;
  if (!think_.empty()) text_ += chunk.text;
  if (chunk.token_ids > 0 || chunk.has_text) {
    const bool answers = !chunk.text.empty() || !chunk.tool_calls.empty();
    arrivals_.push_back({t_ns, chunk.token_ids, chunk.has_text, answers, text_.size()});
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
  count_reasoning(r);
  return r;
}

namespace {

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

std::pair<size_t, bool> StreamTally::first_answer() const {
  // With a think span, the content up to the end of its close tag is thinking: the text either
  // starts with the open tag (after blanks) or, the template having opened it, holds a close.
  size_t thinking_ends = 0;
  bool spanned = false;
  if (!think_.empty()) {
    const size_t start = text_.find_first_not_of(" \t\r\n");
    const bool opened = !think_.open.empty() && start != std::string::npos &&
                        text_.compare(start, think_.open.size(), think_.open) == 0;
    const size_t close = text_.find(think_.close);
    spanned = opened || close != std::string::npos;
    if (spanned)
      thinking_ends = close == std::string::npos ? text_.size() : close + think_.close.size();
  }
  size_t text_begin = 0;
  for (size_t i = 0; i < arrivals_.size(); ++i) {
    const Arrival& a = arrivals_[i];
    bool answers = a.answers;
    if (spanned && answers && a.text_end <= thinking_ends) answers = false;  // inside the span
    if (spanned && answers && a.text_end > thinking_ends) {
      const size_t from = std::max(text_begin, thinking_ends);
      answers = !blank(std::string_view(text_).substr(from, a.text_end - from));
    }
    text_begin = a.text_end;
    if (answers) return {i, saw_reasoning_field_ || spanned};
  }
  return {arrivals_.size(), saw_reasoning_field_ || spanned};
}

// The tokens the chunks before the first answer chunk carried, counted as by_token_ids and
// by_text_chunks count them (chunks parsed in one read share a time, so times cannot tell).
void StreamTally::count_reasoning(TallyResult& r) const {
  const auto [answer, reasoned] = first_answer();
  if (!reasoned) return;
  const int total = int(r.token_times_ns.size());
  int64_t before = 0;
  if (answer >= arrivals_.size()) {
    before = total;
  } else if (saw_token_ids_) {
    for (size_t i = 0; i < answer; ++i) before += std::max(0, arrivals_[i].token_ids);
  } else if (r.usage_tokens) {
    before = int64_t(answer) * std::max(0, *r.usage_tokens) / int64_t(arrivals_.size());
  } else {
    before = int64_t(answer);
  }
  r.reasoning_tokens = int(std::min<int64_t>(before, total));
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
