#include "engine/core/batch_builder.h"

namespace infergate {

BatchInput build_batch(const SchedulerOutput& out, int block_size) {
  BatchInput b;
  b.token_ids.reserve(size_t(out.num_batched_tokens));
  b.positions.reserve(size_t(out.num_batched_tokens));
  b.slot_mapping.reserve(size_t(out.num_batched_tokens));
  for (const ScheduledSequence& s : out.scheduled) {
    const Sequence& seq = *s.seq;
    const int start = seq.num_computed_tokens;
    AttentionSequence a;
    a.query_start = b.num_tokens();
    a.query_len = s.num_new_tokens;
    a.context_len = start + s.num_new_tokens;
    a.block_table = seq.block_table.data();
    for (int p = start; p < start + s.num_new_tokens; ++p) {
      b.token_ids.push_back(seq.tokens[size_t(p)]);
      b.positions.push_back(p);
      b.slot_mapping.push_back(int64_t(seq.block_table[size_t(p / block_size)]) * block_size +
                               p % block_size);
    }
    b.sequences.push_back(a);
    if (s.samples()) b.logits_rows.push_back(b.num_tokens() - 1);
  }
  return b;
}

}  // namespace infergate
