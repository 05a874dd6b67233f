#include <catch2/catch.hpp>

#include "engine/kv/block_pool.h"
#include "engine/kv/kv_cache_manager.h"

using namespace infergate;

TEST_CASE("block pool hands out least recently freed blocks and keeps counts", "[kv]") {
  BlockPool pool(4);
  const int32_t a = pool.allocate(), b = pool.allocate();
  REQUIRE(pool.num_free_blocks() == 2);
  pool.touch(a);
  REQUIRE(pool.ref_count(a) == 2);
  pool.release(a);
  pool.release(a);
  pool.release(b);
  REQUIRE(pool.num_free_blocks() == 4);
  REQUIRE_THROWS_AS(pool.release(a), std::logic_error);  // never below zero
  pool.check_invariants();
  // Free queue order: the two never-used blocks first, then a, then b.
  const int32_t c = pool.allocate(), d = pool.allocate(), e = pool.allocate();
  REQUIRE(c != a);
  REQUIRE(d != a);
  REQUIRE(e == a);
  pool.check_invariants();
}

TEST_CASE("prefix cache lookup is exact and evicted blocks stop matching", "[kv]") {
  BlockPool pool(2);
  const std::vector<int32_t> t1 = {1, 2, 3, 4}, t2 = {5, 6, 7, 8};
  const int32_t b1 = pool.allocate(), b2 = pool.allocate();
  const uint64_t h1 = hash_block(0, t1), h2 = hash_block(h1, t2);
  REQUIRE(pool.cache(b1, h1, -1, t1));
  REQUIRE(pool.cache(b2, h2, b1, t2));
  REQUIRE(pool.lookup(h1, -1, t1) == b1);
  REQUIRE(pool.lookup(h2, b1, t2) == b2);
  // Same hash, other tokens (a forced collision) misses.
  REQUIRE(pool.lookup(h1, -1, t2) == -1);
  pool.release(b2);
  pool.release(b1);  // both idle but still cached
  REQUIRE(pool.lookup(h1, -1, t1) == b1);
  // Reusing b2 evicts its content; b1 stays findable.
  const int32_t again = pool.allocate();
  REQUIRE(again == b2);
  REQUIRE(pool.lookup(h2, b1, t2) == -1);
  REQUIRE(pool.lookup(h1, -1, t1) == b1);
  pool.check_invariants();
}

TEST_CASE("paged manager frees every block after all sequences finish", "[kv]") {
  auto kv = make_paged_kv_cache_manager(8, 4, true);
  Sequence a("a", {1, 2, 3, 4, 5, 6, 7, 8, 9}, {}, 1, 0);
  Sequence b("b", {1, 2, 3, 4, 5, 6, 7, 8, 10}, {}, 2, 0);
  REQUIRE(kv->allocate_slots(a, 9, kv->find_cached_prefix(a)));
  REQUIRE(a.block_table.size() == 3u);
  a.num_computed_tokens = 9;
  kv->cache_computed_blocks(a);
  const PrefixHit hit = kv->find_cached_prefix(b);
  REQUIRE(hit.num_tokens == 8);
  REQUIRE(kv->allocate_slots(b, 1, hit));
  REQUIRE(b.num_computed_tokens == 8);
  REQUIRE(b.block_table[0] == a.block_table[0]);
  REQUIRE(kv->usage() == Approx(4.0 / 8.0));
  // Asking for more than the pool has changes nothing.
  Sequence big("big", std::vector<int32_t>(40, 3), {}, 3, 0);
  REQUIRE_FALSE(kv->allocate_slots(big, 40, {}));
  REQUIRE(big.block_table.empty());
  kv->free(a);
  kv->free(b);
  REQUIRE(kv->usage() == 0.0);
  kv->check_invariants();
}

TEST_CASE("contiguous manager reserves max_model_len per sequence", "[kv]") {
  auto kv = make_contiguous_kv_cache_manager(10, 4, 16);  // 4 blocks a slab, 2 slabs
  Sequence a("a", {1, 2}, {}, 1, 0), b("b", {1}, {}, 2, 0), c("c", {1}, {}, 3, 0);
  REQUIRE(kv->allocate_slots(a, 2, {}));
  REQUIRE(a.block_table.size() == 4u);
  REQUIRE(kv->allocate_slots(b, 1, {}));
  REQUIRE_FALSE(kv->allocate_slots(c, 1, {}));  // the two-token sequences filled the pool
  REQUIRE(kv->usage() == Approx(0.8));
  kv->free(a);
  REQUIRE(kv->allocate_slots(c, 1, {}));
  kv->free(b);
  kv->free(c);
  kv->check_invariants();
  REQUIRE_THROWS_WITH(make_contiguous_kv_cache_manager(3, 4, 16),
                      Catch::Contains("cannot hold even one max_model_len"));
}

TEST_CASE("a sequence that computed a duplicate of a cached block keeps its later blocks findable",
          "[kv]") {
  // Two prompts with one 8-token prefix, computed in the same step: each holds its own copy of
  // the prefix; only the first copy is cached. The second prompt's own next block must still be
  // found after that prefix (a conversation's next turn sends it again).
  auto kv = make_paged_kv_cache_manager(16, 4, true);
  Sequence a("a", {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9}, {}, 1, 0);
  Sequence b("b", {1, 2, 3, 4, 5, 6, 7, 8, 7, 7, 7, 7}, {}, 2, 0);
  REQUIRE(kv->allocate_slots(a, 12, kv->find_cached_prefix(a)));
  REQUIRE(kv->allocate_slots(b, 12, kv->find_cached_prefix(b)));
  REQUIRE(a.block_table[0] != b.block_table[0]);  // neither was cached yet: two copies
  a.num_computed_tokens = 12;
  b.num_computed_tokens = 12;
  kv->cache_computed_blocks(a);
  kv->cache_computed_blocks(b);
  Sequence next("next", {1, 2, 3, 4, 5, 6, 7, 8, 7, 7, 7, 7, 6}, {}, 3, 0);
  CHECK(kv->find_cached_prefix(next).num_tokens == 12);
  kv->free(a);
  kv->free(b);
  kv->check_invariants();
}
