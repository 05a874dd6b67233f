// ShardCollectives (what a sharded Transformer calls) over a Communicator of the stage's group.
#pragma once

#include "engine/comm/communicator.h"
#include "engine/model/model_shard.h"

namespace infergate {

class GroupCollectives final : public ShardCollectives {
 public:
  explicit GroupCollectives(Communicator& group) : group_(group) {}

  void all_reduce(float* data, size_t count) override;
  void all_gather(const float* local, size_t count, float* out) override;
  void exchange_counts(const int64_t* send, int64_t* recv) override;
  void all_to_all_v(const float* send, const size_t* send_counts, float* recv,
                    const size_t* recv_counts) override;
  void all_to_all_v(const int32_t* send, const size_t* send_counts, int32_t* recv,
                    const size_t* recv_counts) override;

 private:
  Communicator& group_;
};

}  // namespace infergate
