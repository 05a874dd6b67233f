// Decides which KV blocks each sequence owns. The scheduler talks only to this interface, so
// the paged cache and its switched-off alternative (contiguous reservation) are measured
// under the very same scheduler.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/kv/block_pool.h"
#include "engine/request/sequence.h"

namespace infergate {

// A block table entry whose block a sliding window released (never read again).
inline constexpr int32_t kReleasedBlock = -1;

// Cached blocks that cover a waiting sequence's leading tokens.
struct PrefixHit {
  std::vector<int32_t> blocks;
  int num_tokens = 0;
};

class KvCacheManager {
 public:
  virtual ~KvCacheManager() = default;

  // The longest cached prefix of a sequence about to be admitted (nothing claimed yet).
  virtual PrefixHit find_cached_prefix(const Sequence& seq) const = 0;
  // Grows seq's block table to cover num_computed_tokens (+ hit) + num_new_tokens. Claims
  // `hit` first (advancing num_computed_tokens). Returns false, changing nothing, when the
  // pool cannot supply the blocks.
  virtual bool allocate_slots(Sequence& seq, int num_new_tokens, const PrefixHit& hit) = 0;
  // Publishes seq's newly computed full blocks for reuse by later prefixes.
  virtual void cache_computed_blocks(Sequence& seq) = 0;
  // Releases all of seq's blocks (finish, abort or preemption).
  virtual void free(Sequence& seq) = 0;
  // Releases the blocks past those holding seq's tokens (speculative decoding wrote KV for
  // draft tokens it then rejected). Those blocks hold no computed token, so none is cached.
  virtual void trim(Sequence& seq) = 0;
  // Sliding-window attention: releases seq's blocks that no later query can see (every
  // position before num_computed_tokens - window + 1), leaving kReleasedBlock in their table
  // entries. Cached ones stay in the prefix cache until evicted. Default: keeps them.
  virtual void release_behind_window(Sequence& /*seq*/, int /*window*/) {}

  // Prefill/decode handoff. The cached blocks holding `tokens`' leading full blocks, in order
  // (as many as are cached; none without a prefix cache).
  virtual std::vector<int32_t> cached_prefix_blocks(std::span<const int32_t> tokens) const = 0;
  // Adopts the KV of `tokens`' first `num_blocks` full blocks from another engine: each block
  // not cached here is taken from the pool, `fill(i, block)` writes block i's KV into it, and it
  // joins the prefix cache, so a request with this prefix computes only what follows. Stops
  // early when the pool has no free block or `fill` returns false (it has no KV for block i).
  // Returns how many blocks were filled; without a prefix cache, none.
  virtual int import_prefix(std::span<const int32_t> tokens, int num_blocks,
                            const std::function<bool(int, int32_t)>& fill) = 0;

  virtual int num_blocks() const = 0;
  virtual int block_size() const = 0;
  // Fraction of the pool held by sequences (0..1), vLLM's kv_cache_usage.
  virtual double usage() const = 0;
  virtual PrefixCacheStats prefix_stats() const { return {}; }
  virtual void check_invariants() const = 0;
};

std::unique_ptr<KvCacheManager> make_paged_kv_cache_manager(int num_blocks, int block_size,
                                                            bool prefix_caching);
// Every sequence reserves ceil(max_model_len / block_size) consecutive blocks at admission.
std::unique_ptr<KvCacheManager> make_contiguous_kv_cache_manager(int num_blocks, int block_size,
                                                                 int max_model_len);

}  // namespace infergate
