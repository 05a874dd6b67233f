// The switched-off alternative to paging: each admitted sequence reserves a contiguous slab
// of max_model_len tokens, used or not, as engines did before PagedAttention. It makes the
// waste measurable: fewer sequences fit in the same pool.
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/kv/kv_cache_manager.h"

namespace infergate {

namespace {

class ContiguousKvCacheManager final : public KvCacheManager {
 public:
  ContiguousKvCacheManager(int num_blocks, int block_size, int max_model_len)
      : num_blocks_(num_blocks),
        block_size_(block_size),
        blocks_per_slab_((max_model_len + block_size - 1) / block_size) {
    const int slabs = num_blocks / blocks_per_slab_;
    if (slabs == 0) {
      throw std::invalid_argument("contiguous KV cache: the pool (" + std::to_string(num_blocks) +
                                  " blocks) cannot hold even one max_model_len reservation (" +
                                  std::to_string(blocks_per_slab_) + " blocks)");
    }
    for (int s = slabs - 1; s >= 0; --s) free_slabs_.push_back(s);
    slab_owner_.assign(size_t(slabs), false);
  }

  PrefixHit find_cached_prefix(const Sequence&) const override { return {}; }

  bool allocate_slots(Sequence& seq, int num_new_tokens, const PrefixHit&) override {
    if (seq.num_computed_tokens + num_new_tokens > blocks_per_slab_ * block_size_) {
      throw std::logic_error("contiguous KV cache: sequence grew past max_model_len");
    }
    if (!seq.block_table.empty()) return true;  // the reservation already covers it
    if (free_slabs_.empty()) return false;
    const int slab = free_slabs_.back();
    free_slabs_.pop_back();
    slab_owner_[size_t(slab)] = true;
    for (int i = 0; i < blocks_per_slab_; ++i) {
      seq.block_table.push_back(slab * blocks_per_slab_ + i);
    }
    return true;
  }

  void cache_computed_blocks(Sequence&) override {}
  void trim(Sequence&) override {}  // the reservation is the sequence's until it ends

  void free(Sequence& seq) override {
    if (seq.block_table.empty()) return;
    const int slab = seq.block_table.front() / blocks_per_slab_;
    if (!slab_owner_[size_t(slab)]) throw std::logic_error("contiguous KV cache: double free");
    slab_owner_[size_t(slab)] = false;
    free_slabs_.push_back(slab);
    seq.block_table.clear();
  }

  std::vector<int32_t> cached_prefix_blocks(std::span<const int32_t>) const override { return {}; }
  int import_prefix(std::span<const int32_t>, int,
                    const std::function<bool(int, int32_t)>&) override {
    return 0;
  }
  int num_blocks() const override { return num_blocks_; }
  int block_size() const override { return block_size_; }
  double usage() const override {
    const double slabs = double(slab_owner_.size());
    return (slabs - double(free_slabs_.size())) * blocks_per_slab_ / double(num_blocks_);
  }
  void check_invariants() const override {
    size_t owned = 0;
    for (bool o : slab_owner_) owned += o;
    if (owned + free_slabs_.size() != slab_owner_.size()) {
      throw std::logic_error("contiguous KV cache: slab accounting broken");
    }
  }

 private:
  int num_blocks_;
  int block_size_;
  int blocks_per_slab_;
  std::vector<int> free_slabs_;
  std::vector<bool> slab_owner_;
};

}  // namespace

std::unique_ptr<KvCacheManager> make_contiguous_kv_cache_manager(int num_blocks, int block_size,
                                                                 int max_model_len) {
  return std::make_unique<ContiguousKvCacheManager>(num_blocks, block_size, max_model_len);
}

}  // namespace infergate
