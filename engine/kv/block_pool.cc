#include "engine/kv/block_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace infergate {

uint64_t hash_block(uint64_t parent_hash, std::span<const int32_t> tokens) {
  uint64_t h = parent_hash ^ 0x9e3779b97f4a7c15ULL;
  for (int32_t t : tokens) {
    h ^= uint64_t(uint32_t(t)) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
  }
  return h;
}

BlockPool::BlockPool(int num_blocks) : blocks_(static_cast<size_t>(num_blocks)) {
  if (num_blocks <= 0) throw std::invalid_argument("KV block pool needs at least one block");
  for (int32_t i = 0; i < num_blocks; ++i) push_free_tail(i);
}

void BlockPool::push_free_tail(int32_t id) {
  Block& b = blocks_[size_t(id)];
  b.prev = free_tail_;
  b.next = -1;
  if (free_tail_ >= 0)
    blocks_[size_t(free_tail_)].next = id;
  else
    free_head_ = id;
  free_tail_ = id;
  b.in_free_queue = true;
  ++num_free_;
}

void BlockPool::unlink_free(int32_t id) {
  Block& b = blocks_[size_t(id)];
  if (b.prev >= 0)
    blocks_[size_t(b.prev)].next = b.next;
  else
    free_head_ = b.next;
  if (b.next >= 0)
    blocks_[size_t(b.next)].prev = b.prev;
  else
    free_tail_ = b.prev;
  b.prev = b.next = -1;
  b.in_free_queue = false;
  --num_free_;
}

void BlockPool::evict(int32_t id) {
  Block& b = blocks_[size_t(id)];
  if (b.cached) {
    index_.erase(b.hash);
    b.cached = false;
    b.tokens.clear();
  }
  ++b.generation;
}

int32_t BlockPool::allocate() {
  if (free_head_ < 0) throw std::logic_error("KV block pool exhausted");
  const int32_t id = free_head_;
  unlink_free(id);
  evict(id);
  blocks_[size_t(id)].ref_count = 1;
  return id;
}

void BlockPool::touch(int32_t id) {
  Block& b = blocks_[size_t(id)];
  if (b.ref_count == 0) unlink_free(id);
  ++b.ref_count;
}

void BlockPool::release(int32_t id) {
  Block& b = blocks_[size_t(id)];
  if (b.ref_count <= 0) {
    throw std::logic_error("KV block " + std::to_string(id) + " released with ref count " +
                           std::to_string(b.ref_count));
  }
  if (--b.ref_count == 0) push_free_tail(id);
}

int32_t BlockPool::lookup(uint64_t hash, int32_t parent, std::span<const int32_t> tokens) const {
  const auto it = index_.find(hash);
  if (it == index_.end()) return -1;
  const Block& b = blocks_[size_t(it->second)];
  if (b.parent != parent) return -1;
  if (parent >= 0 && blocks_[size_t(parent)].generation != b.parent_generation) return -1;
  if (!std::equal(tokens.begin(), tokens.end(), b.tokens.begin(), b.tokens.end())) return -1;
  return it->second;
}

bool BlockPool::cache(int32_t id, uint64_t hash, int32_t parent, std::span<const int32_t> tokens) {
  Block& b = blocks_[size_t(id)];
  if (b.cached || index_.count(hash)) return false;
  b.cached = true;
  b.hash = hash;
  b.parent = parent;
  b.parent_generation = parent >= 0 ? blocks_[size_t(parent)].generation : 0;
  b.tokens.assign(tokens.begin(), tokens.end());
  index_.emplace(hash, id);
  return true;
}

void BlockPool::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("block pool: " + what); };
  int free_count = 0;
  std::vector<char> seen(blocks_.size(), 0);
  for (int32_t id = free_head_, prev = -1; id >= 0; prev = id, id = blocks_[size_t(id)].next) {
    if (seen[size_t(id)]++) fail("block " + std::to_string(id) + " twice in the free queue");
    if (blocks_[size_t(id)].prev != prev) fail("free queue links broken");
    if (blocks_[size_t(id)].ref_count != 0) fail("referenced block in the free queue");
    ++free_count;
  }
  if (free_count != num_free_) fail("free count mismatch");
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    if (b.ref_count < 0) fail("negative ref count on block " + std::to_string(i));
    if ((b.ref_count == 0) != b.in_free_queue)
      fail("block " + std::to_string(i) + " neither referenced nor free");
  }
  for (const auto& [hash, id] : index_) {
    if (!blocks_[size_t(id)].cached || blocks_[size_t(id)].hash != hash) fail("stale index");
  }
}

}  // namespace infergate
