// The plan rank 0 broadcasts decodes to the same batch; micro-batches partition it in order.
#include <catch2/catch.hpp>

#include "engine/parallel/batch_plan_codec.h"
#include "engine/parallel/micro_batches.h"

namespace infergate {
namespace {

// Three sequences: a 5-token prefill chunk, a decode and a 3-token prefill; block size 4.
struct Fixture {
  std::vector<int32_t> tables = {7, 8, 3, 1, 2, 9};
  BatchInput batch;
  Fixture() {
    batch.token_ids = {10, 11, 12, 13, 14, 20, 30, 31, 32};
    batch.positions = {0, 1, 2, 3, 4, 9, 0, 1, 2};
    batch.slot_mapping = {28, 29, 30, 31, 32, 13, 36, 37, 38};
    batch.sequences = {
        {0, 5, 5, tables.data()}, {5, 1, 10, tables.data() + 2}, {6, 3, 3, tables.data() + 5}};
    batch.logits_rows = {4, 5, 8};
  }
};

std::vector<int32_t> table(const AttentionSequence& s, int block_size) {
  return {s.block_table, s.block_table + (s.context_len + block_size - 1) / block_size};
}

TEST_CASE("batch plan: decode(encode(batch)) is the batch, block tables included") {
  const Fixture f;
  std::vector<int32_t> tables;
  const BatchInput b = decode_batch(encode_batch(f.batch, 4), tables);
  CHECK(b.token_ids == f.batch.token_ids);
  CHECK(b.positions == f.batch.positions);
  CHECK(b.slot_mapping == f.batch.slot_mapping);
  CHECK(b.logits_rows == f.batch.logits_rows);
  REQUIRE(b.sequences.size() == 3);
  for (size_t s = 0; s < 3; ++s) {
    CHECK(b.sequences[s].query_start == f.batch.sequences[s].query_start);
    CHECK(b.sequences[s].query_len == f.batch.sequences[s].query_len);
    CHECK(b.sequences[s].context_len == f.batch.sequences[s].context_len);
    CHECK(table(b.sequences[s], 4) == table(f.batch.sequences[s], 4));
  }
  std::vector<int64_t> truncated = encode_batch(f.batch, 4);
  truncated.pop_back();
  CHECK_THROWS_WITH(decode_batch(truncated, tables), Catch::Contains("truncated"));
}

TEST_CASE("micro-batches: contiguous sequences, balanced tokens, logit rows in order") {
  const Fixture f;
  CHECK(split_micro_batches(f.batch, 1).size() == 1);
  const std::vector<BatchInput> parts = split_micro_batches(f.batch, 2);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].token_ids == std::vector<int32_t>{10, 11, 12, 13, 14});
  CHECK(parts[0].logits_rows == std::vector<int64_t>{4});
  CHECK(parts[1].token_ids == std::vector<int32_t>{20, 30, 31, 32});
  CHECK(parts[1].sequences[0].query_start == 0);
  CHECK(parts[1].sequences[1].query_start == 1);
  CHECK(parts[1].logits_rows == std::vector<int64_t>{0, 3});
  // More parts than sequences: one sequence each.
  const std::vector<BatchInput> many = split_micro_batches(f.batch, 8);
  REQUIRE(many.size() == 3);
  int64_t tokens = 0;
  for (const BatchInput& b : many) {
    CHECK(b.sequences.size() == 1);
    tokens += b.num_tokens();
  }
  CHECK(tokens == f.batch.num_tokens());
}

}  // namespace
}  // namespace infergate
