// The pool of KV blocks: reference counts, one LRU free queue, and the prefix-cache index.
// A freed block keeps its cached content until the queue hands it out again, so a later
// request with the same prefix can still hit it (vLLM v1's BlockPool).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace infergate {

struct PrefixCacheStats {
  int64_t queries = 0;  // prompt tokens looked up
  int64_t hits = 0;     // prompt tokens found cached
};

class BlockPool {
 public:
  explicit BlockPool(int num_blocks);

  int num_blocks() const { return int(blocks_.size()); }
  // Blocks with no reference, cached or not (all can be handed out).
  int num_free_blocks() const { return num_free_; }
  int ref_count(int32_t id) const { return blocks_[size_t(id)].ref_count; }

  // Takes the least recently freed block (evicting its cache entry) with one reference.
  // Throws std::logic_error when none is free: callers check num_free_blocks() first.
  int32_t allocate();
  // Adds a reference to a cached block found by lookup(), taking it off the free queue.
  void touch(int32_t id);
  // Drops a reference; at zero the block joins the free queue's tail.
  void release(int32_t id);

  // The cached block holding `tokens` right after `parent` (-1: first block), or -1.
  // Exact: a hit needs equal tokens and the very parent block, unchanged since caching.
  int32_t lookup(uint64_t hash, int32_t parent, std::span<const int32_t> tokens) const;
  // Publishes a full, computed block. False if identical content is cached elsewhere.
  bool cache(int32_t id, uint64_t hash, int32_t parent, std::span<const int32_t> tokens);
  // The block cached under `hash` (what a lookup of that content reaches), or -1.
  int32_t cached_block(uint64_t hash) const {
    const auto it = index_.find(hash);
    return it == index_.end() ? -1 : it->second;
  }

  // Throws std::logic_error if ref counts, the free queue or the index disagree.
  void check_invariants() const;

 private:
  struct Block {
    int ref_count = 0;
    bool cached = false;
    uint64_t hash = 0;
    int32_t parent = -1;
    uint64_t parent_generation = 0;
    uint64_t generation = 0;  // bumped on every eviction, so stale children never match
    std::vector<int32_t> tokens;
    int32_t prev = -1, next = -1;  // free queue links
    bool in_free_queue = false;
  };

  void push_free_tail(int32_t id);
  void unlink_free(int32_t id);
  void evict(int32_t id);

  std::vector<Block> blocks_;
  std::unordered_map<uint64_t, int32_t> index_;
  int32_t free_head_ = -1, free_tail_ = -1;
  int num_free_ = 0;
};

// Chained content hash of one block: parent's hash and the block's tokens.
uint64_t hash_block(uint64_t parent_hash, std::span<const int32_t> tokens);

}  // namespace infergate
