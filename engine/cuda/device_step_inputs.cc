#include "engine/cuda/device_step_inputs.h"

#include <algorithm>
#include <vector>

namespace infergate::cuda {

namespace {

// Host side of one attention batch: its sequences, block tables at offsets into one flat array.
struct HostAttentionBatch {
  std::vector<DeviceAttentionSequence> seqs;
  int64_t max_query_len = 0;
  int64_t max_context_len = 0;

  void add(const AttentionSequence& s, int block_size, std::vector<int32_t>& tables) {
    DeviceAttentionSequence d;
    d.query_start = s.query_start;
    d.query_len = s.query_len;
    d.context_len = s.context_len;
    d.block_table_offset = int64_t(tables.size());
    const int64_t blocks = (s.context_len + block_size - 1) / block_size;
    tables.insert(tables.end(), s.block_table, s.block_table + blocks);
    seqs.push_back(d);
    max_query_len = std::max(max_query_len, s.query_len);
    max_context_len = std::max(max_context_len, s.context_len);
  }
};

DeviceAttentionBatch describe(const HostAttentionBatch& h, const DeviceAttentionSequence* seqs,
                              const int32_t* tables) {
  DeviceAttentionBatch b;
  b.seqs = seqs;
  b.num_seqs = int64_t(h.seqs.size());
  b.block_tables = tables;
  b.max_query_len = h.max_query_len;
  b.max_context_len = h.max_context_len;
  return b;
}

std::vector<int32_t> narrowed(const std::vector<int64_t>& rows) {
  return std::vector<int32_t>(rows.begin(), rows.end());
}

}  // namespace

void DeviceStepInputs::upload(const BatchInput& batch, int block_size, cudaStream_t stream,
                              int64_t decode_context_bound) {
  token_ids_.upload(batch.token_ids, stream);
  positions_.upload(batch.positions, stream);
  slots_.upload(batch.slot_mapping, stream);
  logits_rows_.upload(narrowed(batch.logits_rows), stream);
  HostAttentionBatch decodes, prefills;
  std::vector<int32_t> tables;
  for (const AttentionSequence& s : batch.sequences) {
    (s.query_len == 1 ? decodes : prefills).add(s, block_size, tables);
  }
  const int32_t* dtables = block_tables_.upload(tables, stream);
  decodes.max_context_len = std::max(decodes.max_context_len, decode_context_bound);
  decodes_ = describe(decodes, decode_seqs_.upload(decodes.seqs, stream), dtables);
  prefills_ = describe(prefills, prefill_seqs_.upload(prefills.seqs, stream), dtables);
}

size_t DeviceStepInputs::bytes() const {
  return token_ids_.bytes() + positions_.bytes() + logits_rows_.bytes() + block_tables_.bytes() +
         slots_.bytes() + decode_seqs_.bytes() + prefill_seqs_.bytes();
}

}  // namespace infergate::cuda
