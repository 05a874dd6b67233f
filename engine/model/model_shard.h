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

// The group's collectives on host float/int buffers, in the group's rank order.
class ShardCollectives {
 public:
  virtual ~ShardCollectives() = default;
  virtual void all_reduce(float* data, size_t count) = 0;
  // out = every rank's `count` elements of `local`, concatenated in rank order.
  virtual void all_gather(const float* local, size_t count, float* out) = 0;
  // One count per rank each way: recv[j] = what rank j put in its send[this rank].
  virtual void exchange_counts(const int64_t* send, int64_t* recv) = 0;
  // send_counts[j] elements to rank j, recv_counts[j] from rank j, packed in rank order.
  virtual void all_to_all_v(const float* send, const size_t* send_counts, float* recv,
                            const size_t* recv_counts) = 0;
  virtual void all_to_all_v(const int32_t* send, const size_t* send_counts, int32_t* recv,
                            const size_t* recv_counts) = 0;
};

}  // namespace infergate
