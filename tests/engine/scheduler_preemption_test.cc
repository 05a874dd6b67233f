// Preemption by recompute, step by step on a paged KV cache of 4-token blocks: which running
// sequence gives way when blocks run out, what it keeps and loses, and how it comes back.
#include <catch2/catch.hpp>
#include <vector>

#include "scheduler_rig.h"

using namespace infergate;
using infergate::testing::SchedulerRig;

namespace {

// a and b (one block each) and c (two blocks) fill 4 of 5 blocks; in the second step a and
// b both need a second block: a takes the free one and b's forces a preemption.
SchedulerRig two_decoders_and_a_victim(bool prefix_caching) {
  auto rig = SchedulerRig::paged(5, {}, prefix_caching);
  rig.add("a", 4, 3);
  rig.add("b", 4, 4);
  rig.add("c", 8, 3);
  return rig;
}

}  // namespace

TEST_CASE(
    "when KV blocks run out the latest admitted sequence is preempted and waits at the "
    "front with its blocks freed",
    "[engine][scheduler]") {
  auto rig = two_decoders_and_a_victim(/*prefix_caching=*/false);
  Sequence& c = *rig.sequences()[2];
  CHECK(rig.step().scheduled == "a:4* b:4* c:8*");
  Sequence& d = rig.add("d", 1, 1);
  // b needs the block, but c, admitted last, is the one that gives way.
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1* b:1*");
  CHECK(second.preempted == "c");
  CHECK(c.status == SequenceStatus::kWaiting);
  CHECK(c.block_table.empty());
  CHECK(c.num_computed_tokens == 0);
  CHECK(c.num_output_tokens() == 1);  // its sampled token stays
  CHECK(c.num_preemptions == 1);
  CHECK(rig.scheduler().num_preemptions() == 1);
  CHECK(rig.scheduler().num_running() == 2u);
  CHECK(rig.scheduler().num_waiting() == 2u);
  CHECK(rig.kv().usage() == 4.0 / 5.0);  // a's and b's two blocks each
  // c needs 3 blocks again and only 1 is free; d, behind it, waits too.
  const auto third = rig.step();
  CHECK(third.scheduled == "a:1* b:1*");
  CHECK(third.finished == "a");
  // Recomputation: the whole prompt and the generated token, then c samples its next token.
  const auto fourth = rig.step();
  CHECK(fourth.scheduled == "b:1* c:9*");
  CHECK(fourth.finished == "b");
  CHECK(c.num_output_tokens() == 2);
  const auto fifth = rig.step();
  CHECK(fifth.scheduled == "c:1* d:1*");
  CHECK(fifth.finished == "c d");
  CHECK(c.finish_reason == FinishReason::kLength);
  CHECK(c.num_output_tokens() == 3);
  CHECK(c.num_preemptions == 1);
  CHECK(d.num_preemptions == 0);
  CHECK(rig.kv().usage() == 0.0);
}

TEST_CASE("a readmitted sequence takes back its own blocks that are still in the prefix cache",
          "[engine][scheduler]") {
  auto rig = two_decoders_and_a_victim(/*prefix_caching=*/true);
  Sequence& c = *rig.sequences()[2];
  rig.step();
  CHECK(rig.step().preempted == "c");
  // b's new block evicted c's second block (freed first, so handed out first); c's first
  // block is still cached, but c needs two more and one is free.
  CHECK(rig.step().finished == "a");
  const int64_t hits_before = rig.kv().prefix_stats().hits;
  const auto fourth = rig.step();
  CHECK(fourth.scheduled == "b:1* c:5*");  // 9 tokens, 4 of them cached
  CHECK(rig.kv().prefix_stats().hits == hits_before + 4);
  CHECK(c.num_cached_prompt_tokens == 0);  // what it found at its first admission
  rig.run_to_end();
  CHECK(c.num_output_tokens() == 3);
}

TEST_CASE(
    "the latest admitted sequence is preempted even when it is the one that needs the "
    "block",
    "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(2);
  Sequence& a = rig.add("a", 3, 5);
  Sequence& b = rig.add("b", 4, 5);
  CHECK(rig.step().scheduled == "a:3* b:4*");
  // a's fourth token fits its block; b's fifth needs a block and b is last: b goes.
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1*");
  CHECK(second.preempted == "b");
  // a runs alone to its end, taking b's freed block; then b recomputes its 5 tokens.
  CHECK(rig.step().scheduled == "a:1*");
  CHECK(rig.step().scheduled == "a:1*");
  CHECK(rig.step().finished == "a");
  CHECK(rig.step().scheduled == "b:5*");
  rig.run_to_end();
  CHECK(a.num_preemptions == 0);
  CHECK(b.num_preemptions == 1);
  CHECK(b.num_output_tokens() == 5);
  CHECK(rig.scheduler().num_preemptions() == 1);
}

TEST_CASE("sequences preempted in one step go back in arrival order ahead of older waiting ones",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(4);
  for (const char* id : {"a", "b", "c", "d"}) rig.add(id, 4, 3);
  CHECK(rig.step().scheduled == "a:4* b:4* c:4* d:4*");
  rig.add("e", 1, 1);
  // Every sequence needs a second block: a takes d's, b takes c's.
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1* b:1*");
  CHECK(second.preempted == "d c");
  CHECK(rig.scheduler().num_preemptions() == 2);
  CHECK(rig.step().finished == "a b");
  // c and d come back before e, which arrived before they were preempted.
  CHECK(rig.step().scheduled == "c:5* d:5*");
  CHECK(rig.step().finished == "c d");
  CHECK(rig.step().scheduled == "e:1*");
}

TEST_CASE("a step that preempts admits nothing, not even a sequence that would fit again",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(6);
  const std::vector<int32_t> prompt = infergate::testing::counting_prompt(8, 500);
  rig.add("a", prompt, 5);
  rig.add("b", 4, 5);
  Sequence& c = rig.add("c", prompt, 5);  // a's twin, admitted with it: no sharing yet
  CHECK(rig.step().scheduled == "a:8* b:4* c:8*");
  // a takes the free block, b's block costs c its two. c's prompt is in a's blocks, so one
  // block would readmit it at once; the rule (vLLM's) makes it wait for the next step.
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1* b:1*");
  CHECK(second.preempted == "c");
  CHECK(rig.step().scheduled == "a:1* b:1* c:1*");
  CHECK(c.num_computed_tokens == 9);
  CHECK(c.num_cached_prompt_tokens == 0);
}
