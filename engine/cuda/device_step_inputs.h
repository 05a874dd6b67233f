// One step's BatchInput copied to the device: token ids, positions, KV slots, the rows to
// sample, and the attention sequences split into decodes (one query each: the Flash-Decoding
// kernel) and the rest (prefills and chunks over a cached prefix: the FlashAttention-2 kernel).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/batch_input.h"
#include "kernels/cuda/attention_batch.h"

namespace infergate::cuda {

class DeviceStepInputs {
 public:
  // Queues the copies on `stream`; the buffers keep their size across steps. A CUDA graph's
  // steps pass `decode_context_bound` (at least every context), so the decode kernel's grid and
  // workspace, which follow max_context_len, are the same on every replay.
  void upload(const BatchInput& batch, int block_size, cudaStream_t stream,
              int64_t decode_context_bound = 0);

  const int32_t* token_ids() const { return token_ids_.data(); }
  const int32_t* positions() const { return positions_.data(); }
  const int64_t* slot_mapping() const { return slots_.data(); }
  const int32_t* logits_rows() const { return logits_rows_.data(); }
  // Sequences with query_len == 1, and all the others; num_seqs 0 when there are none.
  const DeviceAttentionBatch& decodes() const { return decodes_; }
  const DeviceAttentionBatch& prefills() const { return prefills_; }
  size_t bytes() const;

 private:
  GrowableDeviceBuffer<int32_t> token_ids_, positions_, logits_rows_, block_tables_;
  GrowableDeviceBuffer<int64_t> slots_;
  GrowableDeviceBuffer<DeviceAttentionSequence> decode_seqs_, prefill_seqs_;
  DeviceAttentionBatch decodes_, prefills_;
};

}  // namespace infergate::cuda
