#include "engine/parallel/group_collectives.h"

#include <numeric>
#include <span>

namespace infergate {

namespace {

size_t total(const size_t* counts, int n) { return std::accumulate(counts, counts + n, size_t(0)); }

}  // namespace

void GroupCollectives::all_reduce(float* data, size_t count) {
  group_.all_reduce(CommSpan(data, count, CommDType::kF32));
}

void GroupCollectives::all_gather(const float* local, size_t count, float* out) {
  group_.all_gather(ConstCommSpan(local, count, CommDType::kF32),
                    CommSpan(out, count * size_t(group_.size()), CommDType::kF32));
}

void GroupCollectives::exchange_counts(const int64_t* send, int64_t* recv, size_t per_peer) {
  const size_t n = size_t(counts_.size()) * per_peer;
  counts_.all_to_all(ConstCommSpan(send, n, CommDType::kI64), CommSpan(recv, n, CommDType::kI64));
}

void GroupCollectives::all_to_all_v(const float* send, const size_t* send_counts, float* recv,
                                    const size_t* recv_counts) {
  const int n = group_.size();
  group_.all_to_all_v(ConstCommSpan(send, total(send_counts, n), CommDType::kF32),
                      std::span<const size_t>(send_counts, size_t(n)),
                      CommSpan(recv, total(recv_counts, n), CommDType::kF32),
                      std::span<const size_t>(recv_counts, size_t(n)));
}

void GroupCollectives::all_to_all_v(const int32_t* send, const size_t* send_counts, int32_t* recv,
                                    const size_t* recv_counts) {
  const int n = group_.size();
  group_.all_to_all_v(ConstCommSpan(send, total(send_counts, n), CommDType::kI32),
                      std::span<const size_t>(send_counts, size_t(n)),
                      CommSpan(recv, total(recv_counts, n), CommDType::kI32),
                      std::span<const size_t>(recv_counts, size_t(n)));
}

}  // namespace infergate
