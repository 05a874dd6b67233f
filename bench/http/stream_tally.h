// Per-token arrival times and checked token counts from the chunks of one streamed completion
// (the rules are docs/metrics.md's, "HTTP targets"): every token a chunk carries is stamped with
// the time the chunk was parsed off the socket; the server's `usage` gives the counts, and is
// checked against what the stream itself carried.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/http/stream_chunk.h"

namespace infergate {

struct TallyResult {
  std::vector<int64_t> token_times_ns;  // one per output token, in order
  int prompt_tokens = 0;                // usage.prompt_tokens; 0 without usage
  int streamed_tokens = 0;              // token_ids streamed, or chunks with text
  std::optional<int> usage_tokens;      // usage.completion_tokens, when the server sent usage
  bool counted_by_ids = false;          // the stream carried token_ids
  std::vector<int32_t> token_ids;       // those ids, in order
  // usage disagrees with the stream: another token_ids total, or fewer tokens than text chunks
  bool mismatch = false;
  std::optional<KvTransferRecord> kv_transfer;  // the stream's, if it carried one
  // A reasoning model's: the leading tokens that were thinking, before the first chunk of the
  // answer (all of them when no answer came); absent when the stream carried no reasoning.
  std::optional<int> reasoning_tokens;
};

// A reasoning model's thinking inside the answer's text (`<think>...</think>`): `close` ends
// it; `open`, when the text starts with it, begins it (a template may have opened it already).
struct ThinkSpan {
  std::string open, close;
  bool empty() const { return close.empty(); }
};

class StreamTally {
 public:
  explicit StreamTally(ThinkSpan think = {}) : think_(std::move(think)) {}

  // A chunk parsed off the socket at `t_ns`.
  void add(int64_t t_ns, const StreamChunk& chunk);

  // The tally once the stream has ended at `end_ns` (stamps the tokens that the usage reports
  // but no chunk carried).
  TallyResult finish(int64_t end_ns) const;

  const std::string& finish_reason() const { return finish_reason_; }
  int output_chunks() const { return int(arrivals_.size()); }

 private:
  struct Arrival {
    int64_t t_ns;
    int token_ids;  // -1: none in this chunk
    bool has_text;
    bool answers;     // carries answer output: content or tool calls (not only reasoning)
    size_t text_end;  // where its content ends in text_ (with a think span)
  };
  void by_token_ids(TallyResult& r, int64_t end_ns) const;
  void by_text_chunks(TallyResult& r, int64_t end_ns) const;
  // The first arrival carrying the answer, or arrivals_.size(); whether any reasoning came.
  std::pair<size_t, bool> first_answer() const;
  void count_reasoning(TallyResult& r) const;

  std::vector<Arrival> arrivals_;  // chunks that carried output
  std::vector<int32_t> ids_;
  bool saw_token_ids_ = false;
  std::optional<StreamUsage> usage_;
  std::optional<KvTransferRecord> kv_transfer_;
  std::string finish_reason_;
  ThinkSpan think_;
  bool saw_reasoning_field_ = false;
  std::string text_;  // the content so far, kept only with a think span
};

}  // namespace infergate
