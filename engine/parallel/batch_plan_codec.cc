#include "engine/parallel/batch_plan_codec.h"

#include <stdexcept>

namespace infergate {

// Layout: [num_tokens, num_seqs, num_logits_rows, token_ids..., positions..., slots...,
//          per sequence (query_start, query_len, context_len, table_len, table...)...,
//          logits_rows...]
std::vector<int64_t> encode_batch(const BatchInput& b, int block_size) {
  const int64_t n = b.num_tokens();
  std::vector<int64_t> out = {n, int64_t(b.sequences.size()), int64_t(b.logits_rows.size())};
  out.insert(out.end(), b.token_ids.begin(), b.token_ids.end());
  out.insert(out.end(), b.positions.begin(), b.positions.end());
  out.insert(out.end(), b.slot_mapping.begin(), b.slot_mapping.end());
  for (const AttentionSequence& s : b.sequences) {
    const int64_t blocks = (s.context_len + block_size - 1) / block_size;
    out.insert(out.end(), {s.query_start, s.query_len, s.context_len, blocks});
    out.insert(out.end(), s.block_table, s.block_table + blocks);
  }
  out.insert(out.end(), b.logits_rows.begin(), b.logits_rows.end());
  return out;
}

BatchInput decode_batch(const std::vector<int64_t>& in, std::vector<int32_t>& tables) {
  size_t at = 0;
  const auto next = [&]() -> int64_t {
    if (at >= in.size()) throw std::runtime_error("decode_batch: the plan is truncated");
    return in[at++];
  };
  BatchInput b;
  const int64_t n = next(), seqs = next(), rows = next();
  for (int64_t i = 0; i < n; ++i) b.token_ids.push_back(int32_t(next()));
  for (int64_t i = 0; i < n; ++i) b.positions.push_back(int32_t(next()));
  for (int64_t i = 0; i < n; ++i) b.slot_mapping.push_back(next());
  std::vector<size_t> table_offsets;
  tables.clear();
  for (int64_t s = 0; s < seqs; ++s) {
    AttentionSequence seq;
    seq.query_start = next();
    seq.query_len = next();
    seq.context_len = next();
    const int64_t blocks = next();
    table_offsets.push_back(tables.size());
    for (int64_t i = 0; i < blocks; ++i) tables.push_back(int32_t(next()));
    b.sequences.push_back(seq);
  }
  for (size_t s = 0; s < b.sequences.size(); ++s) {
    b.sequences[s].block_table = tables.data() + table_offsets[s];
  }
  for (int64_t i = 0; i < rows; ++i) b.logits_rows.push_back(next());
  if (at != in.size()) throw std::runtime_error("decode_batch: trailing data after the plan");
  return b;
}

}  // namespace infergate
