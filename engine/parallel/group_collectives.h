// ShardCollectives (what a sharded Transformer calls) over the communicators of the stage's group:
// one for the forward's buffers (MPI on the CPU, NCCL on GPUs) and one in host memory for the
// counts (the same MPI communicator on the CPU).
#pragma once

#include "engine/comm/communicator.h"
#include "engine/model/model_shard.h"

namespace infergate {

class GroupCollectives final : public ShardCollectives {
 public:
  explicit GroupCollectives(Communicator& group) : group_(group), counts_(group) {}
  GroupCollectives(Communicator& group, Communicator& host_counts)
      : group_(group), counts_(host_counts) {}

  void all_reduce(float* data, size_t count) override;
  void all_gather(const float* local, size_t count, float* out) override;
  void exchange_counts(const int64_t* send, int64_t* recv, size_t per_peer) override;
  void all_to_all_v(const float* send, const size_t* send_counts, float* recv,
                    const size_t* recv_counts) override;
  void all_to_all_v(const int32_t* send, const size_t* send_counts, int32_t* recv,
                    const size_t* recv_counts) override;

 private:
  Communicator& group_;
  Communicator& counts_;
};

}  // namespace infergate
