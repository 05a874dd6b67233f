// The router's picture of each replica's prefix cache: the prompts it sent there, as prefix
// hashes (prefix_hashes.h), each replica's held to the blocks its cache has room for and
// evicted least recently used first, a prompt's last blocks before its first (as an engine's
// block pool frees them). Approximate: the router sees what it sent, not what a replica kept.
// Not thread-safe; the router makes one routing decision at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

namespace infergate {

class PrefixIndex {
 public:
  // Throws std::invalid_argument unless 1 <= replicas <= kMaxReplicas and capacity_blocks >= 1.
  PrefixIndex(int replicas, size_t capacity_blocks);

  static constexpr int kMaxReplicas = 1024;

  int replicas() const { return int(replicas_.size()); }
  // The replica was sent this prompt: its blocks become that replica's most recently used.
  void record(int replica, std::span<const uint64_t> hashes);
  // Per replica, how many leading hashes of `hashes` it holds.
  std::vector<size_t> matched_blocks(std::span<const uint64_t> hashes) const;
  size_t blocks(int replica) const { return replicas_.at(size_t(replica)).where.size(); }
  // The replica restarted: its cache is empty.
  void clear(int replica);

 private:
  struct Replica {
    std::list<uint64_t> lru;  // most recently used first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where;
  };
  std::vector<Replica> replicas_;
  size_t capacity_;
};

}  // namespace infergate
