// Paged KV (vLLM's PagedAttention): blocks are taken one at a time as a sequence grows, and
// full blocks are shared through the prefix cache.
#include <algorithm>
#include <span>
#include <stdexcept>

#include "engine/kv/kv_cache_manager.h"

namespace infergate {

namespace {

int blocks_for(int tokens, int block_size) { return (tokens + block_size - 1) / block_size; }

class PagedKvCacheManager final : public KvCacheManager {
 public:
  PagedKvCacheManager(int num_blocks, int block_size, bool prefix_caching)
      : pool_(num_blocks), block_size_(block_size), prefix_caching_(prefix_caching) {}

  PrefixHit find_cached_prefix(const Sequence& seq) const override {
    PrefixHit hit;
    if (!prefix_caching_ || !seq.block_table.empty()) return hit;
    // The last token is always recomputed: its logits are needed to sample.
    const int full = (seq.num_tokens() - 1) / block_size_;
    uint64_t parent_hash = 0;
    int32_t parent = -1;
    for (int i = 0; i < full; ++i) {
      const std::span<const int32_t> tokens(seq.tokens.data() + size_t(i) * size_t(block_size_),
                                            size_t(block_size_));
      const uint64_t h = i < int(seq.block_hashes.size()) ? seq.block_hashes[size_t(i)]
                                                          : hash_block(parent_hash, tokens);
      const int32_t block = pool_.lookup(h, parent, tokens);
      if (block < 0) break;
      hit.blocks.push_back(block);
      parent_hash = h;
      parent = block;
    }
    hit.num_tokens = int(hit.blocks.size()) * block_size_;
    return hit;
  }

  bool allocate_slots(Sequence& seq, int num_new_tokens, const PrefixHit& hit) override {
    const int computed = seq.num_computed_tokens + hit.num_tokens;
    const int have = int(seq.block_table.size() + hit.blocks.size());
    const int need = std::max(0, blocks_for(computed + num_new_tokens, block_size_) - have);
    int hit_free = 0;  // idle cached blocks stop being free once claimed
    for (int32_t b : hit.blocks) hit_free += pool_.ref_count(b) == 0;
    if (need > pool_.num_free_blocks() - hit_free) return false;
    if (seq.block_table.empty()) {
      if (prefix_caching_) {
        stats_.queries += seq.num_tokens();
        stats_.hits += hit.num_tokens;
      }
      if (seq.num_preemptions == 0) seq.num_cached_prompt_tokens = hit.num_tokens;
    }
    for (int32_t b : hit.blocks) {
      pool_.touch(b);
      seq.block_table.push_back(b);
    }
    seq.num_computed_tokens = computed;
    seq.num_cached_blocks = int(hit.blocks.size());
    for (int i = 0; i < need; ++i) seq.block_table.push_back(pool_.allocate());
    return true;
  }

  void cache_computed_blocks(Sequence& seq) override {
    if (!prefix_caching_) return;
    const int full = seq.num_computed_tokens / block_size_;
    for (int i = int(seq.block_hashes.size()); i < full; ++i) {
      const uint64_t parent_hash = i > 0 ? seq.block_hashes[size_t(i - 1)] : 0;
      seq.block_hashes.push_back(hash_block(parent_hash, block_tokens(seq, i)));
    }
    for (int i = seq.num_cached_blocks; i < full; ++i) {
      if (seq.block_table[size_t(i)] == kReleasedBlock) continue;  // cached before its release
      // The parent is the block a lookup of the previous content reaches: when this sequence
      // computed a duplicate of a block cached elsewhere (two prompts with one prefix in one
      // step), that is the other copy, or its later blocks would never be found.
      int32_t parent = -1;
      if (i > 0) {
        parent = pool_.cached_block(seq.block_hashes[size_t(i - 1)]);
        if (parent < 0) parent = seq.block_table[size_t(i - 1)];
      }
      pool_.cache(seq.block_table[size_t(i)], seq.block_hashes[size_t(i)], parent,
                  block_tokens(seq, i));
    }
    seq.num_cached_blocks = std::max(seq.num_cached_blocks, full);
  }

  void free(Sequence& seq) override {
    // Reverse order: a sequence's tail blocks are evicted before its shared head blocks.
    for (auto it = seq.block_table.rbegin(); it != seq.block_table.rend(); ++it) {
      if (*it != kReleasedBlock) pool_.release(*it);
    }
    seq.block_table.clear();
    seq.num_cached_blocks = 0;
  }

  void trim(Sequence& seq) override {
    const size_t keep = size_t(blocks_for(seq.num_tokens(), block_size_));
    while (seq.block_table.size() > keep) {
      pool_.release(seq.block_table.back());
      seq.block_table.pop_back();
    }
  }

  void release_behind_window(Sequence& seq, int window) override {
    const int first_seen = seq.num_computed_tokens - window + 1;  // by the next query
    const size_t behind = first_seen > 0 ? size_t(first_seen / block_size_) : 0;
    for (size_t i = 0; i < behind && i < seq.block_table.size(); ++i) {
      if (seq.block_table[i] == kReleasedBlock) continue;
      pool_.release(seq.block_table[i]);
      seq.block_table[i] = kReleasedBlock;
    }
  }

  std::vector<int32_t> cached_prefix_blocks(std::span<const int32_t> tokens) const override {
    std::vector<int32_t> blocks;
    if (!prefix_caching_) return blocks;
    uint64_t parent_hash = 0;
    int32_t parent = -1;
    for (size_t i = 0; (i + 1) * size_t(block_size_) <= tokens.size(); ++i) {
      const auto block = tokens.subspan(i * size_t(block_size_), size_t(block_size_));
      const uint64_t h = hash_block(parent_hash, block);
      parent = pool_.lookup(h, parent, block);
      if (parent < 0) break;
      blocks.push_back(parent);
      parent_hash = h;
    }
    return blocks;
  }

  int import_prefix(std::span<const int32_t> tokens, int num_blocks,
                    const std::function<bool(int, int32_t)>& fill) override {
    if (!prefix_caching_) return 0;
    num_blocks = std::min(num_blocks, int(tokens.size()) / block_size_);
    std::vector<int32_t> held;  // referenced until the end, so none is evicted mid-import
    int filled = 0;
    uint64_t parent_hash = 0;
    int32_t parent = -1;
    for (int i = 0; i < num_blocks; ++i) {
      const auto block = tokens.subspan(size_t(i) * size_t(block_size_), size_t(block_size_));
      const uint64_t h = hash_block(parent_hash, block);
      int32_t id = pool_.lookup(h, parent, block);
      if (id >= 0) {
        pool_.touch(id);
      } else {
        if (pool_.num_free_blocks() == 0) break;
        id = pool_.allocate();
        if (!fill(i, id)) {
          pool_.release(id);
          break;
        }
        pool_.cache(id, h, parent, block);
        ++filled;
      }
      held.push_back(id);
      parent_hash = h;
      parent = id;
    }
    // Head blocks released last: the free queue then evicts a prefix's tail first.
    for (auto it = held.rbegin(); it != held.rend(); ++it) pool_.release(*it);
    return filled;
  }

  int num_blocks() const override { return pool_.num_blocks(); }
  int block_size() const override { return block_size_; }
  double usage() const override {
    return 1.0 - double(pool_.num_free_blocks()) / double(pool_.num_blocks());
  }
  PrefixCacheStats prefix_stats() const override { return stats_; }
  void check_invariants() const override { pool_.check_invariants(); }

 private:
  std::span<const int32_t> block_tokens(const Sequence& seq, int i) const {
    return {seq.tokens.data() + size_t(i) * size_t(block_size_), size_t(block_size_)};
  }

  BlockPool pool_;
  int block_size_;
  bool prefix_caching_;
  PrefixCacheStats stats_;
};

}  // namespace

std::unique_ptr<KvCacheManager> make_paged_kv_cache_manager(int num_blocks, int block_size,
                                                            bool prefix_caching) {
  return std::make_unique<PagedKvCacheManager>(num_blocks, block_size, prefix_caching);
}

}  // namespace infergate
