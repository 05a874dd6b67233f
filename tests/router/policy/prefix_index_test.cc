// The router's prefix hashes and its per-replica picture of the replicas' caches.
#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

#include "router/policy/prefix_hashes.h"
#include "router/policy/prefix_index.h"

namespace infergate {

namespace {

std::vector<int32_t> tokens(int first, int count) {
  std::vector<int32_t> t(static_cast<size_t>(count));
  std::iota(t.begin(), t.end(), first);
  return t;
}

}  // namespace

TEST_CASE("prompts share their first k prefix hashes exactly when they share k full blocks") {
  std::vector<int32_t> a = tokens(0, 40), b = tokens(0, 40);
  b[20] = -1;  // differs in the third block of 8
  const auto ha = token_prefix_hashes(a, 8), hb = token_prefix_hashes(b, 8);
  REQUIRE(ha.size() == 5);
  REQUIRE(hb.size() == 5);
  CHECK(ha[0] == hb[0]);
  CHECK(ha[1] == hb[1]);
  for (size_t i = 2; i < 5; ++i) CHECK(ha[i] != hb[i]);      // a chain: one block changes the rest
  CHECK(token_prefix_hashes(tokens(0, 39), 8).size() == 4);  // the partial block is left out
  CHECK(token_prefix_hashes(tokens(0, 7), 8).empty());
  CHECK(text_prefix_hashes("system: you are helpful. user: hi", 8).size() == 4);
  CHECK(text_prefix_hashes("abcdefgh-one", 8)[0] == text_prefix_hashes("abcdefgh-two", 8)[0]);
  CHECK_THROWS_WITH(token_prefix_hashes(a, 0),
                    Catch::Contains("block size") && Catch::Contains("got 0"));
}

TEST_CASE("the prefix index counts the leading blocks each replica was sent") {
  PrefixIndex index(3, 100);
  const auto h = token_prefix_hashes(tokens(0, 64), 16);  // 4 blocks
  index.record(1, h);
  CHECK(index.matched_blocks(h) == std::vector<size_t>{0, 4, 0});
  std::vector<int32_t> other = tokens(0, 64);
  other[40] = -5;  // the third block differs
  CHECK(index.matched_blocks(token_prefix_hashes(other, 16)) == std::vector<size_t>{0, 2, 0});
  CHECK(index.blocks(1) == 4);
  index.clear(1);
  CHECK(index.matched_blocks(h) == std::vector<size_t>{0, 0, 0});
}

TEST_CASE("a full replica evicts the least recently sent blocks, a prompt's tail before its head") {
  PrefixIndex index(1, 6);
  const auto a = token_prefix_hashes(tokens(0, 64), 16);     // 4 blocks
  const auto b = token_prefix_hashes(tokens(1000, 64), 16);  // 4 other blocks
  index.record(0, a);
  index.record(0, b);  // 8 blocks into 6: a's last two go
  CHECK(index.blocks(0) == 6);
  CHECK(index.matched_blocks(a)[0] == 2);
  CHECK(index.matched_blocks(b)[0] == 4);
  index.record(0, a);  // a again: its head is fresh, b's tail goes
  CHECK(index.matched_blocks(a)[0] == 4);
  CHECK(index.matched_blocks(b)[0] == 2);
}

TEST_CASE("the prefix index refuses sizes outside its limits, naming them") {
  CHECK_THROWS_WITH(PrefixIndex(0, 10), Catch::Contains("replicas must be in 1..1024, got 0"));
  CHECK_THROWS_WITH(PrefixIndex(2000, 10), Catch::Contains("got 2000"));
  CHECK_THROWS_WITH(PrefixIndex(2, 0), Catch::Contains(">= 1 block"));
}

}  // namespace infergate
