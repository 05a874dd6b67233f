#include "router/policy/prefix_index.h"

#include <stdexcept>
#include <string>

namespace infergate {

PrefixIndex::PrefixIndex(int replicas, size_t capacity_blocks) : capacity_(capacity_blocks) {
  if (replicas < 1 || replicas > kMaxReplicas) {
    throw std::invalid_argument("replicas must be in 1.." + std::to_string(kMaxReplicas) +
                                ", got " + std::to_string(replicas));
  }
  if (capacity_blocks < 1) throw std::invalid_argument("a replica's cache must hold >= 1 block");
  replicas_.resize(size_t(replicas));
}

void PrefixIndex::record(int replica, std::span<const uint64_t> hashes) {
  Replica& r = replicas_.at(size_t(replica));
  // Last block first, so that the first block ends most recent and is evicted last: a prefix
  // loses its tail before its head, and the leading blocks that matching counts stay.
  for (auto h = hashes.rbegin(); h != hashes.rend(); ++h) {
    const auto found = r.where.find(*h);
    if (found != r.where.end()) {
      r.lru.splice(r.lru.begin(), r.lru, found->second);
    } else {
      r.lru.push_front(*h);
      r.where.emplace(*h, r.lru.begin());
    }
  }
  while (r.where.size() > capacity_) {
    r.where.erase(r.lru.back());
    r.lru.pop_back();
  }
}

std::vector<size_t> PrefixIndex::matched_blocks(std::span<const uint64_t> hashes) const {
  std::vector<size_t> matched(replicas_.size(), 0);
  for (size_t i = 0; i < replicas_.size(); ++i) {
    while (matched[i] < hashes.size() && replicas_[i].where.count(hashes[matched[i]])) {
      ++matched[i];
    }
  }
  return matched;
}

void PrefixIndex::clear(int replica) {
  Replica& r = replicas_.at(size_t(replica));
  r.lru.clear();
  r.where.clear();
}

}  // namespace infergate
