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
      // Past the sequence's tokens come the draft tokens it verifies this step.
      const int n = seq.num_tokens();
      b.token_ids.push_back(p < n ? seq.tokens[size_t(p)] : seq.draft_tokens.at(size_t(p - n)));
      b.positions.push_back(p);
      b.slot_mapping.push_back(int64_t(seq.block_table[size_t(p / block_size)]) * block_size +
                               p % block_size);
    }
    b.sequences.push_back(a);
    // The last token's row and each draft token's: the next token after each.
    for (int r = s.num_logit_rows(); r > 0; --r) b.logits_rows.push_back(b.num_tokens() - r);
  }
  return b;
}

}  // namespace infergate
