// What one rank holds of a model split across ranks (docs/distributed.md), and the collectives
// its forward needs from the other ranks of its group. A Transformer without a shard is the
// whole model on one rank; the multi-rank executor (engine/parallel/) builds the shard and
// implements the collectives over MPI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace infergate {

struct ModelShard {
  int group_size = 1;  // ranks holding the same layers (the tensor/expert-parallel group)
  int group_rank = 0;
  // Megatron tensor parallelism: heads, FFN width and vocabulary split across the group; the
  // row-parallel projections' partial sums are all-reduced.
  bool tensor_parallel = false;
  // Whole experts split across the group; each rank routes a slice of the tokens and
  // dispatches them all-to-all to the experts' ranks.
  bool expert_parallel = false;
  int64_t vocab_start = 0;         // tensor parallel: this rank's rows of embed and lm_head
  int64_t full_vocab = 0;          // the model's vocabulary (rows past it are padding)
  std::vector<int> local_experts;  // expert parallel: global ids of the experts held here
};

// The group's collectives, in the group's rank order, on the forward's buffers: host memory
// for the CPU (over MPI), device memory for CUDA (over NCCL).
class ShardCollectives {
 public:
  virtual ~ShardCollectives() = default;
  virtual void all_reduce(float* data, size_t count) = 0;
  // out = every rank's `count` elements of `local`, concatenated in rank order.
  virtual void all_gather(const float* local, size_t count, float* out) = 0;
  // `per_peer` counts to each rank each way, in host memory whatever the backend: recv[j *
  // per_peer + i] = what rank j put in its send[this rank * per_peer + i].
  virtual void exchange_counts(const int64_t* send, int64_t* recv, size_t per_peer) = 0;
  // send_counts[j] elements to rank j, recv_counts[j] from rank j, packed in rank order.
  virtual void all_to_all_v(const float* send, const size_t* send_counts, float* recv,
                            const size_t* recv_counts) = 0;
  virtual void all_to_all_v(const int32_t* send, const size_t* send_counts, int32_t* recv,
                            const size_t* recv_counts) = 0;
};

// Tensor parallel logits: `gathered` holds every rank's [rows, part] block in rank order (an
// all-gather of each rank's vocabulary rows); `out` gets [rows, full_vocab], padding dropped.
void assemble_vocab_parts(const float* gathered, int64_t rows, int64_t part,
                          const ModelShard& shard, float* out);

}  // namespace infergate
