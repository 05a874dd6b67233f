// The scheduler's decisions, step by step, on hand-built sequences over a real KV cache
// manager and no model: the token budget, the order of running and waiting sequences,
// chunked prefill, static batching, prefix hits, max_num_seqs, the capacity limits and the
// stop reasons. Preemption is in scheduler_preemption_test.cc.
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "scheduler_rig.h"

using namespace infergate;
using infergate::testing::counting_prompt;
using infergate::testing::SchedulerRig;

namespace {

SchedulerConfig with_budget(int max_num_batched_tokens) {
  SchedulerConfig c;
  c.max_num_batched_tokens = max_num_batched_tokens;
  return c;
}

}  // namespace

TEST_CASE("the scheduler fills the token budget of a step and never exceeds it",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(64, with_budget(8));
  rig.add("a", 5, 3);
  rig.add("b", 5, 3);
  rig.add("c", 5, 3);
  // b's prompt is cut to what a left; c gets nothing until the next step.
  CHECK(rig.step().scheduled == "a:5* b:3");
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1* b:2* c:5*");
  CHECK(second.num_batched_tokens == 8);
  // Less demand than budget: every uncomputed token goes.
  const auto third = rig.step();
  CHECK(third.scheduled == "a:1* b:1* c:1*");
  CHECK(third.num_batched_tokens == 3);
  CHECK(third.finished == "a");
  CHECK(rig.step().finished == "b c");
  CHECK_FALSE(rig.scheduler().has_unfinished());
}

TEST_CASE("each step schedules exactly the smaller of the budget and the tokens still to compute",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(256, with_budget(8));
  // Arrivals spread over the run, prompts of 1 to 13 tokens, outputs of 1 to 7.
  const int kNumSeqs = 12;
  int added = 0;
  auto add_next = [&] {
    rig.add("s" + std::to_string(added), added * 7 % 13 + 1, added * 5 % 7 + 1);
    ++added;
  };
  for (int i = 0; i < 4; ++i) add_next();
  for (int steps = 0; rig.scheduler().has_unfinished(); ++steps) {
    REQUIRE(steps < 1000);
    int demand = 0;
    for (const auto& seq : rig.sequences()) {
      if (seq->status != SequenceStatus::kFinished) demand += seq->num_uncomputed_tokens();
    }
    REQUIRE(rig.step().num_batched_tokens == std::min(8, demand));
    if (added < kNumSeqs) add_next();
  }
  for (const auto& seq : rig.sequences()) {
    CHECK(seq->finish_reason == FinishReason::kLength);
    CHECK(seq->num_output_tokens() == seq->params.max_tokens);
  }
}

TEST_CASE("running sequences are scheduled before waiting ones and each queue keeps its order",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(64, with_budget(2));
  rig.add("a", 1, 3);
  rig.add("b", 1, 3);
  CHECK(rig.step().scheduled == "a:1* b:1*");
  rig.add("c", 1, 1);
  rig.add("d", 1, 1);
  // The decodes take the whole budget: c and d, though waiting, get nothing.
  CHECK(rig.step().scheduled == "a:1* b:1*");
  CHECK(rig.scheduler().num_waiting() == 2u);
  const auto third = rig.step();
  CHECK(third.scheduled == "a:1* b:1*");
  CHECK(third.finished == "a b");
  CHECK(rig.step().scheduled == "c:1* d:1*");
}

TEST_CASE("chunked prefill cuts a long prompt into budget-sized chunks and samples after the last",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(64, with_budget(8));
  Sequence& a = rig.add("a", 21, 2);
  rig.add("b", 4, 1);
  CHECK(rig.step().scheduled == "a:8");
  CHECK(a.num_computed_tokens == 8);
  CHECK(rig.step().scheduled == "a:8");
  CHECK(a.num_computed_tokens == 16);
  // The last chunk is the remainder, and what it leaves of the budget goes to b.
  CHECK(rig.step().scheduled == "a:5* b:3");
  CHECK(a.num_computed_tokens == 21);
  CHECK(a.num_output_tokens() == 1);
  const auto fourth = rig.step();
  CHECK(fourth.scheduled == "a:1* b:1*");
  CHECK(fourth.finished == "a b");
}

TEST_CASE(
    "with chunked prefill off a prompt that does not fit the budget left waits and so do "
    "those behind it",
    "[engine][scheduler]") {
  SchedulerConfig c = with_budget(8);
  c.chunked_prefill = false;
  auto rig = SchedulerRig::paged(64, c);
  rig.add("a", 6, 2);
  rig.add("b", 4, 1);
  rig.add("c", 1, 1);
  // b needs 4 of the 2 left; c would fit but waits behind b (first come, first served).
  const auto first = rig.step();
  CHECK(first.scheduled == "a:6*");
  CHECK(first.num_batched_tokens == 6);
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1* b:4* c:1*");
  CHECK(second.finished == "a b c");
}

TEST_CASE(
    "with chunked prefill off a prompt above the whole budget ends with an error in its "
    "first step",
    "[engine][scheduler]") {
  SchedulerConfig c = with_budget(8);
  c.chunked_prefill = false;
  auto rig = SchedulerRig::paged(64, c);
  Sequence& big = rig.add("big", 9, 1);
  rig.add("small", 8, 1);
  const auto first = rig.step();
  CHECK(first.finished == "big small");
  CHECK(first.scheduled == "small:8*");
  CHECK(big.finish_reason == FinishReason::kError);
  CHECK(big.error ==
        "request 'big' can never be scheduled: it needs 9 tokens at once and "
        "max_num_batched_tokens is 8 and chunked_prefill is off");
  CHECK(big.block_table.empty());
}

TEST_CASE("static batching admits only into an empty engine and runs the batch to completion",
          "[engine][scheduler]") {
  SchedulerConfig c = with_budget(8);
  c.continuous_batching = false;
  auto rig = SchedulerRig::paged(64, c);
  rig.add("a", 5, 1);
  rig.add("b", 5, 3);
  rig.add("c", 5, 1);
  // The batch is what the first step's budget admits: a and a chunk of b, not c.
  const auto first = rig.step();
  CHECK(first.scheduled == "a:5* b:3");
  CHECK(first.finished == "a");
  // a has left the batch, yet c waits with 6 tokens of budget unused until b is done too.
  const auto second = rig.step();
  CHECK(second.scheduled == "b:2*");
  CHECK(second.num_batched_tokens == 2);
  CHECK(rig.step().scheduled == "b:1*");
  CHECK(rig.step().finished == "b");
  CHECK(rig.step().scheduled == "c:5*");
  CHECK_FALSE(rig.scheduler().has_unfinished());

  // Continuous batching, the same requests: c joins as soon as budget is left.
  auto continuous = SchedulerRig::paged(64, with_budget(8));
  continuous.add("a", 5, 1);
  continuous.add("b", 5, 3);
  continuous.add("c", 5, 1);
  continuous.step();
  CHECK(continuous.step().scheduled == "b:2* c:5*");
}

TEST_CASE("a prompt prefix in the cache counts as cached tokens and only the rest is scheduled",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(64, with_budget(64));
  std::vector<int32_t> shared = counting_prompt(8);  // two full blocks
  auto with_tail = [&](std::vector<int32_t> tail) {
    std::vector<int32_t> p = shared;
    p.insert(p.end(), tail.begin(), tail.end());
    return p;
  };
  Sequence& a = rig.add("a", with_tail({1, 1}), 2);
  CHECK(rig.step().scheduled == "a:10*");
  CHECK(a.num_cached_prompt_tokens == 0);
  // a's two full blocks were published after its step; b shares them while a still runs.
  Sequence& b = rig.add("b", with_tail({3, 3, 3}), 1);
  CHECK(rig.step().scheduled == "a:1* b:3*");
  CHECK(b.num_cached_prompt_tokens == 8);
  const PrefixCacheStats stats = rig.kv().prefix_stats();
  CHECK(stats.queries == 10 + 11);
  CHECK(stats.hits == 8);
  // A prompt that is all cache still recomputes its last block: its last token's logits
  // are needed to sample, and hits are whole blocks.
  Sequence& c = rig.add("c", shared, 1);
  CHECK(rig.step().scheduled == "c:4*");
  CHECK(c.num_cached_prompt_tokens == 4);
}

TEST_CASE("sequences admitted in the same step do not share a prefix and the next step's do",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(64, with_budget(64));
  const std::vector<int32_t> prompt = counting_prompt(9, 300);
  Sequence& d = rig.add("d", prompt, 1);
  Sequence& e = rig.add("e", prompt, 1);
  // Blocks are published only by update(), after the step that computed them.
  CHECK(rig.step().scheduled == "d:9* e:9*");
  CHECK(d.num_cached_prompt_tokens == 0);
  CHECK(e.num_cached_prompt_tokens == 0);
  Sequence& f = rig.add("f", prompt, 1);
  CHECK(rig.step().scheduled == "f:1*");
  CHECK(f.num_cached_prompt_tokens == 8);
}

TEST_CASE(
    "max_num_seqs caps the running sequences and a waiting one joins the step after a "
    "finish",
    "[engine][scheduler]") {
  SchedulerConfig c = with_budget(64);
  c.max_num_seqs = 2;
  auto rig = SchedulerRig::paged(64, c);
  rig.add("a", 2, 1);
  rig.add("b", 2, 3);
  rig.add("c", 2, 1);
  const auto first = rig.step();
  CHECK(first.scheduled == "a:2* b:2*");  // budget and blocks to spare, but two at most
  CHECK(first.finished == "a");
  CHECK(rig.scheduler().num_waiting() == 1u);
  const auto second = rig.step();
  CHECK(second.scheduled == "b:1* c:2*");
  CHECK(second.finished == "c");
  CHECK(rig.step().finished == "b");
}

TEST_CASE(
    "a prompt larger than the whole KV pool waits while others run and then ends with an "
    "error",
    "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(4, with_budget(64));  // 16 tokens
  rig.add("a", 3, 2);
  Sequence& big = rig.add("big", 17, 4);
  rig.add("s", 2, 1);
  // While a runs big might still fit later, so it waits, and s behind it waits too.
  CHECK(rig.step().scheduled == "a:3*");
  CHECK(rig.scheduler().num_waiting() == 2u);
  const auto second = rig.step();
  CHECK(second.scheduled == "a:1*");
  CHECK(second.finished == "a");
  // Nothing runs: the whole pool is free and still too small, so big ends and s goes.
  const auto third = rig.step();
  CHECK(third.finished == "big s");
  CHECK(third.scheduled == "s:2*");
  CHECK(big.finish_reason == FinishReason::kError);
  CHECK(big.error ==
        "request 'big' can never be scheduled: it needs 17 tokens at once and the KV pool "
        "holds 16 (4 blocks x 4 tokens)");
  CHECK(big.status == SequenceStatus::kFinished);
  CHECK(big.num_output_tokens() == 0);
  CHECK(big.block_table.empty());
}

TEST_CASE("max_model_len ends a sequence with length before max_tokens", "[engine][scheduler]") {
  SchedulerConfig c = with_budget(64);
  c.max_model_len = 12;
  auto rig = SchedulerRig::paged(64, c);
  Sequence& p = rig.add("p", 8, 100);
  CHECK(rig.step().scheduled == "p:8*");
  CHECK(rig.step().scheduled == "p:1*");
  CHECK(rig.step().scheduled == "p:1*");
  CHECK(rig.step().finished == "p");
  CHECK(p.finish_reason == FinishReason::kLength);
  CHECK(p.num_tokens() == 12);
  CHECK(p.num_output_tokens() == 4);
}

TEST_CASE("a prompt of max_model_len tokens is the engine's to refuse, not the scheduler's",
          "[engine][scheduler]") {
  SchedulerConfig c = with_budget(64);
  c.max_model_len = 12;
  SECTION("paged: it is prefilled and ends with length after one token") {
    auto rig = SchedulerRig::paged(64, c);
    Sequence& p = rig.add("p", 12, 100);
    const auto first = rig.step();
    CHECK(first.scheduled == "p:12*");
    CHECK(first.finished == "p");
    CHECK(p.finish_reason == FinishReason::kLength);
    CHECK(p.num_output_tokens() == 1);
  }
  SECTION("contiguous: one above the reservation is a logic error") {
    auto rig = SchedulerRig::contiguous(12, c);  // reservations of 3 blocks = 12 tokens
    rig.add("p", 13, 1);
    CHECK_THROWS_WITH(rig.scheduler().schedule(), Catch::Contains("grew past max_model_len"));
  }
}

TEST_CASE("the contiguous cache admits one sequence per max_model_len reservation",
          "[engine][scheduler]") {
  SchedulerConfig c = with_budget(64);
  c.max_model_len = 16;
  auto rig = SchedulerRig::contiguous(8, c);  // two reservations of 4 blocks
  Sequence& b = rig.add("b", 3, 4);
  rig.add("a", 3, 1);
  rig.add("c", 3, 1);
  const auto first = rig.step();
  CHECK(first.scheduled == "b:3* a:3*");  // three tokens each, yet c finds no reservation
  CHECK(first.finished == "a");
  CHECK(b.block_table.size() == 4u);
  CHECK(rig.kv().usage() == 0.5);
  const auto second = rig.step();
  CHECK(second.scheduled == "b:1* c:3*");
  CHECK(second.finished == "c");
  CHECK(rig.step().scheduled == "b:1*");
  CHECK(rig.step().finished == "b");
  CHECK(rig.scheduler().num_preemptions() == 0);  // a reservation never runs out

  // The same pool paged holds all three at once.
  auto paged = SchedulerRig::paged(8, c);
  paged.add("b", 3, 4);
  paged.add("a", 3, 1);
  paged.add("c", 3, 1);
  CHECK(paged.step().scheduled == "b:3* a:3* c:3*");
}

TEST_CASE("EOS and stop tokens end a sequence with stop unless ignore_eos", "[engine][scheduler]") {
  SchedulerConfig c = with_budget(64);
  c.eos_token_id = 2;
  auto rig = SchedulerRig::paged(64, c);
  Sequence& eos = rig.add("eos", counting_prompt(3), 10, /*ignore_eos=*/false);
  Sequence& ignores = rig.add("ignores", counting_prompt(3, 200), 10, /*ignore_eos=*/true);
  ignores.params.stop_token_ids = {9};
  CHECK(rig.step(2).finished == "eos");
  CHECK(eos.finish_reason == FinishReason::kStop);
  CHECK(ignores.status == SequenceStatus::kRunning);
  CHECK(rig.step(7).finished.empty());
  CHECK(rig.step(9).finished == "ignores");
  CHECK(ignores.finish_reason == FinishReason::kStop);
  CHECK(ignores.num_output_tokens() == 3);
}

TEST_CASE("remove frees a running sequence's blocks and takes a waiting one off the queue",
          "[engine][scheduler]") {
  auto rig = SchedulerRig::paged(8, with_budget(4));
  Sequence& running = rig.add("running", 4, 10);
  Sequence& waiting = rig.add("waiting", 4, 10);
  CHECK(rig.step().scheduled == "running:4*");
  CHECK(rig.kv().usage() == 1.0 / 8.0);  // one block holds its 4 tokens
  rig.scheduler().remove(&running, FinishReason::kAbort);
  rig.scheduler().remove(&waiting, FinishReason::kAbort);
  CHECK(rig.kv().usage() == 0.0);
  CHECK_FALSE(rig.scheduler().has_unfinished());
  CHECK(running.finish_reason == FinishReason::kAbort);
  CHECK(waiting.status == SequenceStatus::kFinished);
  CHECK(rig.scheduler().schedule().empty());
}
