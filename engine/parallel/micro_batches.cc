#include "engine/parallel/micro_batches.h"

#include <algorithm>

namespace infergate {

namespace {

BatchInput slice(const BatchInput& b, size_t seq_begin, size_t seq_end) {
  BatchInput out;
  const int64_t t0 = b.sequences[seq_begin].query_start;
  const int64_t t1 = b.sequences[seq_end - 1].query_start + b.sequences[seq_end - 1].query_len;
  out.token_ids.assign(b.token_ids.begin() + t0, b.token_ids.begin() + t1);
  out.positions.assign(b.positions.begin() + t0, b.positions.begin() + t1);
  out.slot_mapping.assign(b.slot_mapping.begin() + t0, b.slot_mapping.begin() + t1);
  for (size_t s = seq_begin; s < seq_end; ++s) {
    AttentionSequence seq = b.sequences[s];
    seq.query_start -= t0;
    out.sequences.push_back(seq);
  }
  for (const int64_t row : b.logits_rows) {
    if (row >= t0 && row < t1) out.logits_rows.push_back(row - t0);
  }
  return out;
}

}  // namespace

std::vector<BatchInput> split_micro_batches(const BatchInput& batch, int count) {
  const size_t seqs = batch.sequences.size();
  if (count <= 1 || seqs <= 1) return {batch};
  const int parts = std::min<int>(count, int(seqs));
  const int64_t total = batch.num_tokens();
  std::vector<BatchInput> out;
  size_t begin = 0;
  for (int p = 0; p < parts; ++p) {
    // Cut where the running token count passes the next equal share, leaving a sequence for
    // each remaining part.
    const int64_t target = total * (p + 1) / parts;
    size_t end = begin + 1;
    while (end < seqs - size_t(parts - 1 - p) &&
           batch.sequences[end].query_start + batch.sequences[end].query_len <= target) {
      ++end;
    }
    if (p == parts - 1) end = seqs;
    out.push_back(slice(batch, begin, end));
    begin = end;
  }
  return out;
}

}  // namespace infergate
