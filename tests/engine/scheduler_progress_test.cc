// The scheduler never spins: a sequence that can never be scheduled (more KV than the whole
// pool, or a whole prompt above the token budget) is finished, not left waiting. The engine
// refuses such pools at construction, so these run the real scheduler on a real paged KV
// manager directly, with a pool smaller than max_model_len.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "engine/core/scheduler.h"
#include "engine/kv/kv_cache_manager.h"

using namespace infergate;

namespace {

struct Rig {
  explicit Rig(int num_blocks, SchedulerConfig config = {})
      : kv(make_paged_kv_cache_manager(num_blocks, 16, /*prefix_caching=*/true)),
        scheduler(with_len(config), *kv) {}

  static SchedulerConfig with_len(SchedulerConfig c) {
    c.max_model_len = 256;  // far more than the pools below hold
    return c;
  }

  Sequence& add(const std::string& id, int prompt_tokens, int max_tokens) {
    SamplingParams p;
    p.max_tokens = max_tokens;
    p.ignore_eos = true;
    std::vector<int32_t> prompt(size_t(prompt_tokens), 7);
    for (int i = 0; i < prompt_tokens; ++i) prompt[size_t(i)] = 10 + i;
    seqs.push_back(std::make_unique<Sequence>(id, std::move(prompt), p, 1, 0));
    scheduler.add(seqs.back().get());
    return *seqs.back();
  }

  // Steps to the end under a progress watchdog (each sampled token is 5); returns the
  // sequences in the order they finished.
  std::vector<Sequence*> run() {
    std::vector<Sequence*> finished;
    for (int step = 0; scheduler.has_unfinished(); ++step) {
      REQUIRE(step < 10000);
      const SchedulerOutput out = scheduler.schedule();
      if (out.empty() && out.finished.empty()) {
        FAIL("a step scheduled and finished nothing with "
             << scheduler.num_waiting() << " waiting and " << scheduler.num_running()
             << " running");
      }
      finished.insert(finished.end(), out.finished.begin(), out.finished.end());
      size_t samples = 0;
      for (const ScheduledSequence& s : out.scheduled) samples += s.samples();
      const auto done = scheduler.update(out, std::vector<std::vector<int32_t>>(samples, {5}));
      finished.insert(finished.end(), done.begin(), done.end());
      kv->check_invariants();
    }
    REQUIRE(kv->usage() == 0.0);
    return finished;
  }

  std::unique_ptr<KvCacheManager> kv;
  Scheduler scheduler;
  std::vector<std::unique_ptr<Sequence>> seqs;
};

}  // namespace

TEST_CASE("a prompt larger than the whole KV pool ends with an error and the others are served",
          "[engine]") {
  Rig rig(2);  // 32 tokens
  Sequence& big = rig.add("big", 40, 4);
  Sequence& small = rig.add("small", 3, 4);
  rig.run();
  REQUIRE(big.finish_reason == FinishReason::kError);
  CHECK(big.num_output_tokens() == 0);
  CHECK_THAT(big.error, Catch::Contains("request 'big' can never be scheduled") &&
                            Catch::Contains("needs 40 tokens at once") &&
                            Catch::Contains("the KV pool holds 32 (2 blocks x 16 tokens)"));
  REQUIRE(small.finish_reason == FinishReason::kLength);
  CHECK(small.num_output_tokens() == 4);
}

TEST_CASE("a chunked prompt that outgrows the KV pool alone ends with an error", "[engine]") {
  SchedulerConfig c;
  c.max_num_batched_tokens = 16;  // chunks of one block: the first two fit, the third cannot
  Rig rig(2, c);
  Sequence& big = rig.add("big", 40, 4);
  rig.run();
  REQUIRE(big.finish_reason == FinishReason::kError);
  CHECK_THAT(big.error, Catch::Contains("needs 40 tokens at once"));
  CHECK(big.num_preemptions == 0);
}

TEST_CASE("a sequence that fills the KV pool while decoding alone finishes with length",
          "[engine]") {
  Rig rig(2);
  Sequence& seq = rig.add("grows", 20, 100);
  rig.run();
  REQUIRE(seq.finish_reason == FinishReason::kLength);
  CHECK(seq.error.empty());
  // 32 tokens computed fill both blocks; the 33rd was sampled but has no slot.
  CHECK(seq.num_output_tokens() == 13);
  CHECK(seq.num_preemptions == 0);
}

TEST_CASE("sequences that fit only one at a time take turns through preemption", "[engine]") {
  Rig rig(2);
  Sequence& a = rig.add("a", 10, 15);
  Sequence& b = rig.add("b", 10, 15);
  rig.run();
  for (const Sequence* s : {&a, &b}) {
    CHECK(s->finish_reason == FinishReason::kLength);
    CHECK(s->num_output_tokens() == 15);
  }
  CHECK(rig.scheduler.num_preemptions() > 0);
}

TEST_CASE("with chunked prefill off a prompt above the token budget ends with an error",
          "[engine]") {
  SchedulerConfig c;
  c.chunked_prefill = false;
  c.max_num_batched_tokens = 8;
  Rig rig(8, c);
  Sequence& big = rig.add("big", 10, 4);
  Sequence& small = rig.add("small", 5, 2);
  rig.run();
  REQUIRE(big.finish_reason == FinishReason::kError);
  CHECK_THAT(big.error, Catch::Contains("max_num_batched_tokens is 8 and chunked_prefill is off"));
  CHECK(small.finish_reason == FinishReason::kLength);
}
