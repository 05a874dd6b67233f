#include "engine/core/batch_padding.h"

#include <stdexcept>
#include <string>

namespace infergate {

namespace {

// Every padding sequence's block table: block 0, which always exists.
constexpr int32_t kPaddingBlockTable[1] = {0};

}  // namespace

bool is_decode_only(const BatchInput& batch) {
  for (const AttentionSequence& s : batch.sequences) {
    if (s.query_len != 1) return false;
  }
  return !batch.sequences.empty();
}

BatchInput pad_decode_batch(const BatchInput& batch, int64_t size) {
  if (!is_decode_only(batch) || int64_t(batch.sequences.size()) > size ||
      batch.num_tokens() != int64_t(batch.sequences.size())) {
    throw std::invalid_argument("pad_decode_batch: a decode-only batch of at most " +
                                std::to_string(size) + " sequences is needed, got " +
                                std::to_string(batch.sequences.size()) + " sequences and " +
                                std::to_string(batch.num_tokens()) + " tokens");
  }
  BatchInput padded = batch;
  for (int64_t row = batch.num_tokens(); row < size; ++row) {
    padded.token_ids.push_back(0);
    padded.positions.push_back(0);
    padded.slot_mapping.push_back(-1);
    AttentionSequence s;
    s.query_start = row;
    s.query_len = 1;
    s.context_len = 1;
    s.block_table = kPaddingBlockTable;
    padded.sequences.push_back(s);
    padded.logits_rows.push_back(row);
  }
  return padded;
}

}  // namespace infergate
